import DaemonSupport
import Foundation
import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Turns off `{seconds: T}` switches when their time is up.
///
/// Sleeps until the earliest deadline, or until a switch changes (which may move the earliest
/// deadline), then applies ``ScanSwitch/expiring(at:)`` to every switch that is due. Ends on
/// graceful shutdown. A failing database read or write is logged and retried on the next wake,
/// at most ``retryInterval`` later.
///
/// Deadlines are wall-clock times (they are stored and shown); `now` reads the wall clock and
/// the waits run on `clock`.
struct SwitchDeadlineService: Service {
    let database: AppDatabase
    let hub: SwitchHub
    let logger: Logger
    var clock: any Clock<Duration> = ContinuousClock()
    var now: @Sendable () -> Date = Date.init

    /// How long to wait with no deadline pending before looking again; changes wake it sooner.
    static let idleInterval = Duration.seconds(3600)
    static let retryInterval = Duration.seconds(1)

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let seen = await hub.anyChange.value
            let sleep: Duration
            do {
                sleep = try await expireDueSwitches()
            } catch {
                logger.error("Could not turn off expired switches", metadata: ["error": "\(error)"])
                sleep = Self.retryInterval
            }
            let anyChange = hub.anyChange
            if await wake(after: sleep, on: clock, orWhen: { await anyChange.wait(untilAbove: seen) }) == .stopping {
                return
            }
        }
    }

    /// Turns off the due switches and returns how long until the next deadline.
    private func expireDueSwitches() async throws -> Duration {
        let expired = try await database.expireSwitches(at: Date(milliseconds: now().milliseconds))
        for scanSwitch in expired {
            logger.info("Switch turned off by its time limit", metadata: [
                "scanner": "\(scanSwitch.scannerID)", "revision": "\(scanSwitch.revision)",
            ])
        }
        await hub.publish(expired)
        guard let deadline = try await database.nextSwitchDeadline() else { return Self.idleInterval }
        let seconds = max(0, deadline.timeIntervalSince(now()))
        return Duration(secondsRoundedUp: seconds)
    }
}
