import Synchronization

/// How many switch changes wait for the database's one writer now. While any does, the ingest
/// coalescer ends the commit it is making after the batch it is storing (``IngestCoalescer``),
/// so that a flip waits for one batch's inserts and one fsync, not for a whole group's, and
/// the batches left over are stored in the next commit.
final class SwitchWritesWaiting: Sendable {
    private let count = Atomic<Int>(0)

    /// Whether a switch change waits for (or holds) the writer now.
    var any: Bool { count.load(ordering: .relaxed) > 0 }

    /// Runs `write` (a switch change) counted as waiting until it returns or throws.
    func during<T>(_ write: () async throws -> T) async rethrows -> T {
        count.add(1, ordering: .relaxed)
        defer { count.subtract(1, ordering: .relaxed) }
        return try await write()
    }
}
