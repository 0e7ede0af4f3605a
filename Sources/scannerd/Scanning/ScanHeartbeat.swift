import DaemonSupport
import Synchronization

/// Whether the scan loop still moves: a running session beats on every advertisement and every
/// Wi-Fi scan attempt (failed ones too: a radio that keeps failing is not a hung loop). Asked by
/// the systemd watchdog, which stops pinging when a session has not beaten for `stallLimit`
/// of `clock`'s time.
final class ScanHeartbeat: Sendable {
    private struct State {
        var sessions = 0
        var lastBeat = Duration.zero
    }

    private let state = Mutex(State())
    private let time: ElapsedTime
    /// Longer than any Wi-Fi scan plus the longest retry delay.
    let stallLimit: Duration

    init(stallLimit: Duration = .seconds(60), clock: any Clock<Duration> = ContinuousClock()) {
        self.stallLimit = stallLimit
        time = ElapsedTime(clock)
    }

    func sessionStarted() {
        state.withLock {
            $0.sessions += 1
            $0.lastBeat = time.now
        }
    }

    func sessionEnded() {
        state.withLock { $0.sessions -= 1 }
    }

    func beat() {
        let now = time.now
        state.withLock { $0.lastBeat = now }
    }

    /// True while no session runs, or the running one beat within the last `stallLimit`.
    func isAlive() -> Bool {
        let now = time.now
        return state.withLock { $0.sessions == 0 || now - $0.lastBeat < stallLimit }
    }
}
