/// Broadcasts "rows are stored up to sequence N" to the live streams of one table (measurements,
/// positions), which then read the new rows from the database (the source of truth) themselves.
struct SequenceFeed: Sendable {
    private let stored = Watermark()
    /// Rows committed up to a sequence that readers may not read yet: on PostgreSQL the
    /// measurement feed is read up to its horizon (docs/scale-out.md, "The measurement feed's
    /// horizon"), which ``ClusterFanOutService`` raises ``publish(upTo:)`` to once it passes them.
    private let committed = Watermark()

    /// Announces rows stored up to `sequence` that readers may read, after their transaction committed.
    func publish(upTo sequence: Int64) async {
        await stored.raise(to: sequence)
    }

    /// Returns once rows beyond `sequence` have been announced, or on cancellation.
    func waitForRows(after sequence: Int64) async {
        await stored.wait(untilAbove: sequence)
    }

    /// Announces rows committed up to `sequence` that may still have rows committing below them.
    func commit(upTo sequence: Int64) async {
        await committed.raise(to: sequence)
    }

    /// Returns once rows beyond `sequence` have been committed (``commit(upTo:)``), or on
    /// cancellation; returns the highest sequence committed.
    func waitForCommits(after sequence: Int64) async -> Int64 {
        await committed.wait(untilAbove: sequence)
        return await committed.value
    }
}

/// The live feeds switchd keeps, one per table that has a stream, and how far the services
/// that follow them have got.
struct Feeds: Sendable {
    let measurements = SequenceFeed()
    let positions = SequenceFeed()
    /// Presence events stored, announced by ``PresenceService`` after each commit.
    let events = SequenceFeed()
    /// The last position ID the presence derivation has read.
    let presenceRead = SequenceFeed()
    /// The last tag position ID the presence derivation has read.
    let tagPresenceRead = SequenceFeed()
    /// Counts webhook delivery attempts recorded (delivered or failed).
    let webhookAttempts = Watermark()
    let tagPositions = SequenceFeed()
    let tagEvents = SequenceFeed()
    /// Counts scanners' counter reports received, so ``ScannerOfflineService`` looks again.
    let scannerReports = Watermark()
    /// Counts sighting batches that carried telemetry, so the MQTT publisher publishes it.
    let telemetry = Watermark()
}
