import Synchronization

/// What the fleet's uploads and long-polls did inside the measuring window.
final class FleetTally: Sendable {
    struct Counts: Sendable {
        /// Readings in batches due inside the window.
        var offered = 0
        /// Of those, readings acknowledged by a 201 receipt.
        var stored = 0
        /// Answers 503/429 with Retry-After (the batch was sent again after the wait).
        var busy = 0
        /// Uploads that failed otherwise (no answer, or another status).
        var failed = 0
        /// Long-polls that failed (no answer, or not 200).
        var pollFailures = 0
        /// Milliseconds from sending an upload to its answer, for every upload of the window.
        var postLatencies: [Double] = []
    }

    private let counts = Mutex(Counts())
    /// Whether batches falling due now are counted as offered.
    let measuring = Atomic(false)
    /// Whether acknowledgements are counted now: from the window's start until a grace after its
    /// end, so a batch due at the window's last moment has time to be stored.
    let acking = Atomic(false)
    /// Simulated scanners whose first long-poll has gone out.
    let armed = Atomic(0)

    func update(_ change: (inout Counts) -> Void) {
        counts.withLock { change(&$0) }
    }

    var snapshot: Counts { counts.withLock { $0 } }

    func reset() {
        counts.withLock { $0 = Counts() }
    }
}
