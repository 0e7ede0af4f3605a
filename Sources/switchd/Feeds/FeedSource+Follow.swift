extension FeedSource {
    /// Every matching row after sequence `after`, in order, then each new one once the feed
    /// announces it: the in-process way to follow a table (the database is the source of truth,
    /// so nothing is skipped or repeated). Iteration ends (nil) when the iterating task is
    /// cancelled, and throws what a store read throws.
    func follow(after: Int64) -> FeedFollower<Item> {
        FeedFollower(source: self, after: after)
    }
}

/// The rows of a ``FeedSource`` after a sequence number, forever; see ``FeedSource/follow(after:)``.
struct FeedFollower<Item: Encodable & Sendable>: AsyncSequence, Sendable {
    typealias Element = Item

    let source: FeedSource<Item>
    let after: Int64

    func makeAsyncIterator() -> Iterator {
        Iterator(source: source, covered: after)
    }

    struct Iterator: AsyncIteratorProtocol {
        let source: FeedSource<Item>
        /// Every matching row up to this sequence has been read.
        var covered: Int64
        var ready: [Item] = []

        static var pageSize: Int { 500 }

        mutating func next() async throws -> Item? {
            while ready.isEmpty {
                if Task.isCancelled { return nil }
                let slice = try await source.read(covered, Self.pageSize)
                ready = slice.items
                if slice.items.count == Self.pageSize, let last = slice.items.last {
                    covered = source.sequence(last)
                } else {
                    covered = Swift.max(slice.items.last.map(source.sequence) ?? covered, slice.endOfFeed)
                }
                if ready.isEmpty {
                    await source.feed.waitForRows(after: covered)
                }
            }
            return ready.removeFirst()
        }
    }
}
