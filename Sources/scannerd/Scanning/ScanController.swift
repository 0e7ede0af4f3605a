import Logging
import ScanContract
import DaemonSupport

/// Turns switch revisions into scan sessions: a revision that scans starts a session at once
/// (after stopping the previous one); a revision that does not stops it. Sessions also end on
/// their own when their stop condition is met; switchd enforces it too.
struct ScanController: DaemonService, CustomStringConvertible {
    let switches: AsyncStream<ScanSwitch>
    let radio: any RadioSource
    let spool: Spool
    let positioner: Positioner?
    let events: EventLog
    let logger: Logger
    var counters = ScannerdCounters()
    var heartbeat = ScanHeartbeat()
    /// The sessions' clock.
    var clock: any Clock<Duration> = ContinuousClock()

    /// How the service group names it in its logs.
    var description: String { "ScanController" }

    func run() async {
        await withTaskGroup(of: ScanSession.Ending.self) { group in
            var session: ScanSession?
            var revision: Int?
            for await scanSwitch in switches.endingAtGracefulShutdown(bufferingPolicy: .bufferingNewest(1)) where scanSwitch.revision != revision {
                revision = scanSwitch.revision
                if let running = session {
                    running.stop()
                    _ = await group.next()
                    session = nil
                }
                await spool.describe(scanSwitch)
                if scanSwitch.scanning {
                    let next = ScanSession(
                        scanSwitch: scanSwitch, radio: radio, spool: spool, positioner: positioner, events: events, logger: logger,
                        counters: counters, heartbeat: heartbeat, clock: clock
                    )
                    session = next
                    group.addTask { await next.run() }
                } else {
                    await sealOpenBatch()
                }
            }
            session?.stop()
        }
    }

    /// Readings of a revision that stopped scanning need not wait for the batch age.
    private func sealOpenBatch() async {
        do {
            try await spool.sealOpenBatch()
        } catch {
            logger.error("could not seal the open batch; it is sealed later", metadata: ["error": "\(error)"])
        }
    }
}
