#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DaemonSupport
import Logging
import Positioning
import ScanContract

/// What `scannerd bench` measures: captured HCI events written, one per `write()`, to the socket
/// of a ``ReplayedController`` and taken from there by the daemon's own path, unchanged: the
/// HCI scan loop on its thread (`poll()`, `read()`, HCI event and advertising-data decoding, the
/// iBeacon filter), the stream into a ``ScanSession`` (measurements of the current scan cycle),
/// the ``Spool`` on its own thread (journal lines, batches sealed by size and age into `ready/`
/// with their `fsync`s) and, in locate mode, the ``Positioner`` with its ``Locator`` at every
/// cycle. Only switchd is left out: batches stay in `ready/`.
///
/// The cost is the process's CPU time (every thread, user and system) from the first event
/// written to the last reading sealed, less the feeding thread's own.
struct AdvertisementBench {
    struct Result: Sendable {
        var mode: ScanMode
        /// Advertising reports decoded (each one an iBeacon reading).
        var advertisements: Int
        /// Readings sealed into `ready/`: equal to `advertisements` when nothing was lost.
        var spooled: Int
        /// `write()`s to the journals (one per group of readings heard together, see ``Spool``).
        var journalWrites: Int
        var cpu: Duration
        var wall: Duration

        var microsecondsPerAdvertisement: Double {
            // In two steps: Swift 6.2.3 cannot type the chained division.
            let microseconds: Double = cpu / .microseconds(1)
            return microseconds / Double(max(advertisements, 1))
        }

        /// Percent of one core at `rate` advertisements per second.
        func percentOfCore(at rate: Int) -> Double { microsecondsPerAdvertisement * Double(rate) / 10_000 }
    }

    let events: CapturedBeaconEvents
    /// How many events are written: the captures' events over and over.
    let count: Int
    /// Events per second; nil writes them as fast as the scan loop takes them.
    let rate: Int?
    let logger: Logger

    /// Readings the replayed events carry.
    var expectedReadings: Int {
        (0..<count).reduce(0) { $0 + events.readings[$1 % events.packets.count] }
    }

    /// Runs one scan session of `mode` with its state (spool, radio map) in `directory`, which
    /// must not exist yet. Throws when the spool or the sockets cannot be made, or when not every
    /// reading reached `ready/` within `patience` after the last event was written.
    func run(mode: ScanMode, directory: String, patience: Duration = .seconds(30)) async throws -> Result {
        guard !FileSystem.exists(directory) else {
            throw BenchError(description: "\(directory) exists already; the benchmark starts from an empty spool")
        }
        let (sealedCounts, sealed) = AsyncStream.makeStream(of: Int.self)
        let eventLog = EventLog.disabled(logger: logger) { event in
            if case .sealed(_, _, let count, _) = event { sealed.yield(count) }
        }
        let scanner = try ScannerID("bench")
        let counters = ScannerdCounters()
        let spool = try Spool(
            directory: ScannerdConfiguration.spoolDirectory(in: directory),
            settings: Spool.Settings(scannerID: scanner, batchSize: Spool.Settings.defaultBatchSize, batchAge: Spool.Settings.defaultBatchAge),
            events: eventLog, logger: logger, counters: counters
        )
        let sockets = try PacketSocketPair.make()
        defer { sockets.closeControllerEnd() }
        let controller = ReplayedController(sockets: sockets)
        let radioCounters = RadioCounters()
        let radio = ReplayedRadio(ble: HCIBLEScanner(
            device: "replayed", settings: HCIScanSettings(), counters: radioCounters, events: eventLog, logger: logger,
            open: { _ in controller }
        ))
        let positioner = mode == .locate ? try makePositioner(scanner: scanner, directory: directory, events: eventLog) : nil
        let session = ScanSession(
            scanSwitch: ScanSwitch(scannerID: scanner, scanning: true, mode: mode, changedAt: Date()),
            radio: radio, spool: spool, positioner: positioner, events: eventLog, logger: logger
        )
        let expected = expectedReadings
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await spool.run() }
            group.addTask { _ = await session.run() }
            defer {
                session.stop()
                group.cancelAll()
            }
            let cpuBefore = CPUTime.process
            let started = ContinuousClock.now
            let feederCPU = try await feed(sockets)
            let spooled = await Self.sum(sealedCounts, until: expected, patience: patience)
            let cpu = CPUTime.process - cpuBefore - feederCPU
            let wall = ContinuousClock.now - started
            guard spooled >= expected else {
                throw BenchError(description: "\(spooled) of \(expected) readings reached the spool within \(patience) of the last event")
            }
            return Result(
                mode: mode, advertisements: radioCounters.snapshot.advertisements, spooled: spooled,
                journalWrites: counters.journalWrites.load(ordering: .relaxed), cpu: cpu, wall: wall
            )
        }
    }

    /// Writes the events at `rate` on a thread of its own; returns that thread's CPU time.
    private func feed(_ sockets: PacketSocketPair) async throws -> Duration {
        let (packets, count, rate) = (events.packets, count, rate)
        return try await RadioThread.run(name: "bench-feeder") { _ in
            let start = ContinuousClock.now
            for index in 0..<count {
                if let rate {
                    Syscall.sleep(for: start + .seconds(index) / rate - ContinuousClock.now)
                }
                try sockets.send(packets[index % packets.count])
            }
            return CPUTime.thread
        }
    }

    /// Adds up the sealed counts until they reach `target`, or until `patience` passes.
    private static func sum(_ counts: AsyncStream<Int>, until target: Int, patience: Duration) async -> Int {
        await withTaskGroup(of: Int?.self) { group in
            group.addTask {
                var total = 0
                for await count in counts {
                    total += count
                    if total >= target { break }
                }
                return total
            }
            group.addTask {
                try? await Task.sleep(for: patience)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? 0
        }
    }

    /// A positioner whose radio map (``BenchRadioMap``, of the replayed beacons) is the one a
    /// previous run saved in `directory`, as scannerd finds it after a restart.
    private func makePositioner(scanner: ScannerID, directory: String, events eventLog: EventLog) throws -> Positioner {
        var advertisedPower: [BeaconID: Int] = [:]
        for packet in events.packets {
            for reading in HeardAdvertisement.decode(packet, at: Date()).heard.flatMap(\.readings) {
                if case .ble(let ble) = reading.observation { advertisedPower[ble.beacon] = ble.txPower }
            }
        }
        let beacons = advertisedPower.keys.sorted { $0.description < $1.description }
        let map = BenchRadioMap.map(beacons: beacons, measuredPower: beacons.first.flatMap { advertisedPower[$0] } ?? -59)
        let path = directory + "/radiomap.json"
        try FileSystem.makeDirectories(directory)
        try FileSystem.writeDurably(JSONCoding.encoder().encode(RadioMapCache.Copy(etag: "\"bench\"", fetchedAt: Date(), map: map)), to: path)
        let api = SwitchdAPI(baseURL: ScannerdConfiguration.defaultSwitchd, client: NoSwitchd())
        let (_, positions) = AsyncStream.makeStream(of: NewPosition.self, bufferingPolicy: .bufferingNewest(PositionPoster.queueLimit))
        return Positioner(
            scannerID: scanner, settings: Positioner.Settings(),
            maps: RadioMapRefresher(cache: RadioMapCache(path: path, api: api, logger: logger), interval: .seconds(60)),
            positions: positions, events: eventLog, logger: logger
        )
    }
}
