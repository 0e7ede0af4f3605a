/// Broadcasts "rows are stored up to sequence N" to the live streams of one table (measurements,
/// positions), which then read the new rows from the database (the source of truth) themselves.
struct SequenceFeed: Sendable {
    private let stored = Watermark()

    /// Announces rows stored up to `sequence`, after their transaction committed.
    func publish(upTo sequence: Int64) async {
        await stored.raise(to: sequence)
    }

    /// Returns once rows beyond `sequence` have been announced, or on cancellation.
    func waitForRows(after sequence: Int64) async {
        await stored.wait(untilAbove: sequence)
    }
}

/// The live feeds switchd keeps, one per table that has a stream.
struct Feeds: Sendable {
    let measurements = SequenceFeed()
    let positions = SequenceFeed()
    let tagPositions = SequenceFeed()
    let tagEvents = SequenceFeed()
}
