import Synchronization

/// Whether the scan loop still moves: a running session beats on every advertisement and every
/// Wi-Fi scan attempt (failed ones too: a radio that keeps failing is not a hung loop). Asked by
/// the systemd watchdog, which stops pinging when a session has not beaten for `stallLimit`.
final class ScanHeartbeat: Sendable {
    private struct State {
        var sessions = 0
        var lastBeat = ContinuousClock.now
    }

    private let state = Mutex(State())
    /// Longer than any Wi-Fi scan plus the longest retry delay.
    let stallLimit: Duration

    init(stallLimit: Duration = .seconds(60)) {
        self.stallLimit = stallLimit
    }

    func sessionStarted() {
        state.withLock {
            $0.sessions += 1
            $0.lastBeat = .now
        }
    }

    func sessionEnded() {
        state.withLock { $0.sessions -= 1 }
    }

    func beat() {
        state.withLock { $0.lastBeat = .now }
    }

    /// True while no session runs, or the running one beat within `stallLimit` of `now`.
    func isAlive(at now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { $0.sessions == 0 || now - $0.lastBeat < stallLimit }
    }
}
