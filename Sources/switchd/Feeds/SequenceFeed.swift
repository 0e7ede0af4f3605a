/// Broadcasts "readings are stored up to sequence N" to the live measurement streams, which then
/// read the new rows from the database (the source of truth) themselves.
struct MeasurementFeed: Sendable {
    private let stored = Watermark()

    /// Announces readings stored up to `sequence`, after their transaction committed.
    func publish(upTo sequence: Int64) async {
        await stored.raise(to: sequence)
    }

    /// Returns once readings beyond `sequence` have been announced, or on cancellation.
    func waitForReadings(after sequence: Int64) async {
        await stored.wait(untilAbove: sequence)
    }
}
