import DaemonSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// One switch revision's scanning: the BLE stream and repeated Wi-Fi scans run side by side
/// until the session is stopped or its stop condition is met. Every reading becomes a
/// measurement of the current scan cycle, appended to the spool under the session's revision.
/// Its waits (a `{seconds: T}` stop condition, the cycle without Wi-Fi, retry delays) run on `clock`.
final class ScanSession: Sendable {
    let scanSwitch: ScanSwitch
    let radio: any RadioSource
    let spool: Spool
    let events: EventLog
    let logger: Logger
    /// Positions the cycles of a locate session; nil in survey mode.
    let positioner: Positioner?
    let counters: ScannerdCounters
    let heartbeat: ScanHeartbeat
    let clock: any Clock<Duration>
    /// switchd's settings: the Wi-Fi scan period is read before each scan; nil: back to back.
    let live: LiveSettings?
    /// The scan cycle the session is in; a session started again for new settings goes on from it.
    let cycle: ScanCycle
    /// Seconds between two telemetry reports of one beacon.
    let telemetryInterval = TelemetryThrottle.defaultInterval
    /// The IDs of the session's measurements.
    private let ids = MeasurementIDs()
    private let stopRequests: AsyncStream<Void>
    private let stopContinuation: AsyncStream<Void>.Continuation

    /// Without a Wi-Fi radio, scan cycles are counted by this clock instead.
    static let cycleWithoutWiFi: Duration = .seconds(1)
    static let initialRetryDelay: Duration = .milliseconds(100)
    static let maximumRetryDelay: Duration = .seconds(5)

    /// Why a session ended, or (for the radios) why one of its tasks did.
    enum Ending: Sendable {
        /// ``stop()`` was called: the switch moved on.
        case stopped
        /// `{scans: N}` or `{seconds: T}` was met.
        case stopConditionMet
        /// The BLE stream ended or failed; Wi-Fi scanning goes on.
        case bleEnded
        /// The task was cancelled because the session is ending anyway.
        case cancelled
    }

    init(
        scanSwitch: ScanSwitch, radio: any RadioSource, spool: Spool, positioner: Positioner?, events: EventLog, logger: Logger,
        counters: ScannerdCounters = ScannerdCounters(), heartbeat: ScanHeartbeat = ScanHeartbeat(),
        clock: any Clock<Duration> = ContinuousClock(), live: LiveSettings? = nil
    ) {
        self.scanSwitch = scanSwitch
        self.clock = clock
        self.live = live
        cycle = ScanCycle(startingAt: scanSwitch.scansCompleted)
        self.counters = counters
        self.heartbeat = heartbeat
        self.positioner = scanSwitch.mode == .locate ? positioner : nil
        self.radio = radio
        self.spool = spool
        self.events = events
        var logger = logger
        logger[metadataKey: "revision"] = "\(scanSwitch.revision)"
        self.logger = logger
        (stopRequests, stopContinuation) = AsyncStream.makeStream()
    }

    var revision: Int { scanSwitch.revision }

    /// Ends the session soon: its radios are cancelled and ``run()`` returns. May come before
    /// `run()` starts.
    func stop() {
        stopContinuation.finish()
    }

    /// Scans until stopped or the stop condition is met; records `scanning` once the radios are
    /// armed and `idle` when done. A `{seconds: T}` session ends T after `scanning` is recorded,
    /// on `clock`. A session that meets its own stop condition seals the open batch, so its last
    /// readings go out at once.
    func run() async -> Ending {
        await radio.prepare(for: scanSwitch)
        await positioner?.begin()
        let cycle = self.cycle
        let advertisements = radio.ble?.sessionGroups()
        let sinceScanning = ElapsedTime(clock)
        events.record(.scanning(revision: revision))
        heartbeat.sessionStarted()
        defer { heartbeat.sessionEnded() }
        logger.info("scanning", metadata: ["radio": "\(radio.name)", "mode": "\(scanSwitch.mode.rawValue)"])
        let ending = await withTaskGroup(of: Ending.self) { group in
            if let advertisements {
                group.addTask { await self.record(advertisements, cycle: cycle) }
            }
            group.addTask { await self.scanCycles(cycle) }
            if case .seconds(let seconds)? = scanSwitch.stopAfter {
                group.addTask {
                    do {
                        try await sinceScanning.sleep(until: .seconds(seconds))
                        return .stopConditionMet
                    } catch {
                        return .cancelled
                    }
                }
            }
            group.addTask {
                for await _ in self.stopRequests {}
                return .stopped
            }
            var ending = Ending.cancelled
            while let next = await group.next() {
                if case .bleEnded = next { continue }
                ending = next
                break
            }
            group.cancelAll()
            return ending
        }
        if case .stopConditionMet = ending {
            await sealOpenBatch()
        }
        events.record(.idle(revision: revision))
        logger.info("idle", metadata: ["why": "\(ending)"])
        return ending
    }

    /// Appends every advertisement heard, tagged with the cycle it was heard in; the readings
    /// heard together go to the spool with one hop. The Eddystone-TLM telemetry of the iBeacons
    /// recorded (heard from their addresses) goes with them, the latest of each at most once a
    /// minute of advertisement time (``TelemetryThrottle``).
    private func record(_ advertisements: AsyncThrowingStream<BLEHeardGroup, any Error>, cycle: ScanCycle) async -> Ending {
        var telemetry = TelemetryThrottle(interval: telemetryInterval)
        do {
            for try await group in advertisements {
                let readings = group.readings
                counters.advertisements.add(readings.count + group.hearings.count, ordering: .relaxed)
                heartbeat.beat()
                guard let index = cycle.current else { continue }
                readings.forEach { positioner?.heard($0) }
                for reading in readings {
                    if let hearing = TrackHearing(reading) { telemetry.heardInSession(hearing) }
                }
                group.hearings.forEach { telemetry.heardInSession($0) }
                guard !readings.isEmpty else { continue }
                await spool.append(
                    readings.map { $0.measurement(scan: index, id: ids.next(at: $0.time)) }, telemetry: telemetry.take(), revision: revision
                )
            }
            if Task.isCancelled { return .cancelled }
            logger.warning("the BLE radio stopped delivering advertisements; scanning Wi-Fi only")
        } catch {
            if Task.isCancelled { return .cancelled }
            logger.error("the BLE radio failed; scanning Wi-Fi only", metadata: ["error": "\(error)"])
        }
        return .bleEnded
    }

    /// Runs scan cycles back to back: a Wi-Fi scan, its readings appended as the current cycle,
    /// the cycle ended. A failed scan is retried with backoff and does not end the cycle.
    private func scanCycles(_ cycle: ScanCycle) async -> Ending {
        var backoff = Backoff(initial: Self.initialRetryDelay, maximum: Self.maximumRetryDelay)
        var lastScan: ElapsedTime?
        while !Task.isCancelled {
            heartbeat.beat()
            let readings: [RadioReading]
            do {
                if let wifi = radio.wifi {
                    // A Wi-Fi scan period (switchd's settings) spaces the scans' starts.
                    if let lastScan, let period = live?.wifiScanPeriod, period > .zero {
                        try await lastScan.sleep(until: period)
                    }
                    lastScan = ElapsedTime(clock)
                    readings = try await wifi.scanWiFi()
                    counters.wifiScans.increment()
                } else {
                    try await clock.sleep(for: Self.cycleWithoutWiFi)
                    readings = []
                }
                backoff.reset()
            } catch {
                if Task.isCancelled { return .cancelled }
                logger.error("a Wi-Fi scan failed; retrying", metadata: ["error": "\(error)"])
                do {
                    try await clock.sleep(for: backoff.nextDelay())
                } catch {
                    return .cancelled
                }
                continue
            }
            guard let index = cycle.current else { return .cancelled }
            // "Only our access points": what the allow-list leaves out is neither stored nor positioned with.
            let kept = scanSwitch.allowList.map { list in readings.filter { list.allows($0.observation) } } ?? readings
            await spool.append(kept.map { $0.measurement(scan: index, id: ids.next(at: $0.time)) }, revision: revision)
            await spool.recordScansCompleted(index + 1, revision: revision)
            await positioner?.cycleEnded(wifi: kept, revision: revision, at: Date())
            if case .scans(let count)? = scanSwitch.stopAfter, index + 1 >= count {
                cycle.finish()
                return .stopConditionMet
            }
            cycle.advance()
        }
        return .cancelled
    }

    private func sealOpenBatch() async {
        do {
            try await spool.sealOpenBatch()
        } catch {
            logger.error("could not seal the session's last batch; it is sealed later", metadata: ["error": "\(error)"])
        }
    }
}
