import ScanContract
import SwitchdStore

extension FeedSource where Item: Codable {
    /// Up to `limit` rows after sequence `after`, ascending; `nextCursor` is there exactly when
    /// more rows matching the filters follow.
    ///
    /// - Throws: what the store read throws.
    func page(after: Int64, limit: Int) async throws -> Page<Item> {
        Page(try await read(after, limit + 1), limit: limit, sequence: sequence)
    }
}

extension Page {
    /// The first `limit` items of `slice`, read with one more than `limit` asked for: `nextCursor`
    /// is there exactly when that one more came back.
    init(_ slice: FeedSlice<Item>, limit: Int, sequence: (Item) -> Int64) {
        self.init(read: slice.items, limit: limit) { FeedCursor(afterSequence: sequence($0)).token }
    }

    /// The first `limit` items of `read`, read with one more than `limit` asked for: `nextCursor`
    /// is the `cursor` of the last item kept, there exactly when that one more came back.
    init(read: [Item], limit: Int, cursor: (Item) -> String) {
        let items = Array(read.prefix(limit))
        self.init(items: items, nextCursor: read.count > limit ? items.last.map(cursor) : nil)
    }
}
