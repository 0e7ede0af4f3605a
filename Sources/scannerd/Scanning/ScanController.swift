import Logging
import ScanContract
import DaemonSupport

/// Turns switch revisions into scan sessions: a revision that scans starts a session at once
/// (after stopping the previous one); a revision that does not stops it. Settings from switchd
/// that come with the switch (their own revision) are applied here; a new BLE scan type,
/// interval or window starts the running session again, which arms the radio with them. Sessions also end on
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
    /// Where switchd's settings are applied; nil: none are (the local settings hold).
    var settings: LiveSettings?

    /// How the service group names it in its logs.
    var description: String { "ScanController" }

    func run() async {
        await withTaskGroup(of: ScanSession.Ending.self) { group in
            var session: ScanSession?
            var current: ScanSwitch?
            var settingsRevision: Int??
            for await scanSwitch in switches.endingAtGracefulShutdown(bufferingPolicy: .bufferingNewest(1))
            where scanSwitch.revision != current?.revision || scanSwitch.settingsRevision != settingsRevision {
                var restart = scanSwitch.revision != current?.revision
                if scanSwitch.settingsRevision != settingsRevision {
                    settingsRevision = scanSwitch.settingsRevision
                    // A new BLE type, interval or window reaches the radio when its scan starts again.
                    if applySettings(of: scanSwitch).ble { restart = true }
                }
                guard restart else { continue }
                var next = scanSwitch
                if let running = session {
                    running.stop()
                    _ = await group.next()
                    session = nil
                    // Started again for new settings: the survey's count goes on where it was.
                    if next.revision == current?.revision { next.scansCompleted = running.cycle.current ?? next.scansCompleted }
                }
                current = scanSwitch
                await spool.describe(next)
                if next.scanning {
                    let started = ScanSession(
                        scanSwitch: next, radio: radio, spool: spool, positioner: positioner, events: events, logger: logger,
                        counters: counters, heartbeat: heartbeat, clock: clock, live: settings
                    )
                    session = started
                    group.addTask { await started.run() }
                } else {
                    await sealOpenBatch()
                }
            }
            session?.stop()
        }
    }

    /// Applies the switch's settings (``LiveSettings``), says so on the event log and in the log
    /// (a setting left out as a warning, with why); returns what changed.
    private func applySettings(of scanSwitch: ScanSwitch) -> LiveSettings.Change {
        guard let settings else { return LiveSettings.Change() }
        let change = settings.apply(scanSwitch.settings, revision: scanSwitch.settingsRevision)
        let applied = settings.applied
        events.record(.settingsApplied(revision: applied.revision, settings: applied.settings, unapplied: applied.unapplied))
        logger.info("settings applied", metadata: [
            "settingsRevision": "\(applied.revision.map(String.init) ?? "none (local)")", "restartsBLEScan": "\(change.ble)",
        ])
        for (key, why) in applied.unapplied.sorted(by: { $0.key < $1.key }) {
            logger.warning("a setting from switchd is not applied", metadata: ["setting": "\(key)", "why": "\(why)"])
        }
        return change
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
