import Dispatch
import Foundation
import Harness
import Positioning
import ScanContract

/// switchd's ingest rate (HTTP + JSON + validation + storage, batches of `batchSize` posted
/// `concurrency` at a time over kept-alive connections, through the fleet benchmark's NIO client,
/// ``FleetHTTP``) next to the rate of inserting the very same rows into the very same
/// table with SQLite's C API, prepared statement, one transaction per batch, twice: the readings
/// alone, and everything switchd stores per batch (``RawInsertBaseline/Work``). The rounds
/// alternate (switchd, raw, raw like switchd, switchd, …) so that all meet the machine in the same
/// state, and they are compared round by round: each figure is the median of the per-round ratios.
///
/// Reading IDs are time-ordered, as scannerd makes them (``UUID/timeOrdered(at:random:)``), unless
/// `randomReadingIDs` asks for random (version 4) ones, as scannerd sent before; both sides store
/// the same IDs either way.
struct IngestBench {
    let readings: Int
    let batchSize: Int
    let concurrency: Int
    let rounds: Int
    var randomReadingIDs = false

    /// Rates of each round, in the order run; a single fsync-bound round on a shared machine
    /// varies by ±20 % or more, and the machine's load drifts, so only rounds run next to each
    /// other are compared.
    struct Result {
        var readings: Int
        var randomReadingIDs: Bool
        var switchdPerSecond: [Double]
        /// The readings alone (``RawInsertBaseline/Work/readingsOnly``).
        var rawPerSecond: [Double]
        /// Batch row, readings and emitter summary (``RawInsertBaseline/Work/likeSwitchd``).
        var likePerSecond: [Double]
        /// CPU time per reading, in seconds, of each round: switchd's (every thread, from
        /// `/proc`) and the raw like-switchd insert's (its thread). Less moved by other processes'
        /// disk traffic than the rates are.
        var switchdCPUPerReading: [Double]
        var likeCPUPerRow: [Double]
        /// CPU time per reading of this benchmark's own process while it posts (its HTTP client),
        /// which shares the machine's cores with switchd.
        var clientCPUPerReading: [Double]
        var switchdMedian: Double { median(switchdPerSecond) }
        var rawMedian: Double { median(rawPerSecond) }
        var likeMedian: Double { median(likePerSecond) }
        var pairRatios: [Double] { zip(switchdPerSecond, rawPerSecond).map { $0 / $1 } }
        var likePairRatios: [Double] { zip(switchdPerSecond, likePerSecond).map { $0 / $1 } }
        /// switchd against the readings alone.
        var ratio: Double { median(pairRatios) }
        /// switchd against the same stored data.
        var likeRatio: Double { median(likePairRatios) }
    }

    func run(in folder: TemporaryFolder) async throws -> Result {
        let switchd = try await SwitchdInstance.start(in: folder, label: "switchd-ingest", stateName: "switchd-ingest")
        defer { switchd.process.signal(SIGKILL) }
        let revision = try await Self.setUpSite(through: switchd.adminClient())

        let result = try await withFleetHTTP(baseURL: switchd.baseURL, connections: concurrency) { http in
            try await measureRounds(through: http, switchd: switchd, revision: revision, in: folder)
        }
        await switchd.process.terminate()
        return result
    }

    /// A floor, room and location, and scanner `bench` surveying there; returns its switch's revision.
    static func setUpSite(through api: APIClient) async throws -> Int {
        let floor = try await api.createFloor("Ingest floor")
        let room = try await api.createRoom("Ingest room", floor: floor)
        let spot = try await api.createLocation(in: room, x: 1, y: 2)
        _ = try await api.call("POST", "/v1/scanners", json: NewScanner(id: try ScannerID("bench"), name: "ingest benchmark"), as: Scanner.self)
        return try await api.patchSwitch(SwitchPatch(scanning: true, mode: .survey, locationID: .set(spot.id)), scanner: "bench").revision
    }

    /// The alternated rounds, switchd's posted through `http` with the admin token.
    private func measureRounds(through http: FleetHTTP, switchd: SwitchdInstance, revision: Int, in folder: TemporaryFolder) async throws -> Result {
        // Each round's readings are timed after the last round's, so time-ordered IDs keep growing.
        var clock = Date()
        // Warm up connections and statement caches with one batch that is not counted.
        _ = try await post(http, token: switchd.adminToken, try makeBodies(revision: revision, count: 1, clock: &clock)[0])
        let live = switchd.stateDir + "/switchd.sqlite"
        let raw = try RawInsertBaseline(database: live, copyTo: folder.path("raw.sqlite"), batchSize: batchSize, work: .readingsOnly)
        let like = try RawInsertBaseline(database: live, copyTo: folder.path("raw-like.sqlite"), batchSize: batchSize, work: .likeSwitchd)
        var switchdRates: [Double] = []
        var rawRates: [Double] = []
        var likeRates: [Double] = []
        var switchdCPU: [Double] = []
        var likeCPU: [Double] = []
        var clientCPU: [Double] = []
        for round in 1...rounds {
            let bodies = try makeBodies(revision: revision, count: readings / batchSize, clock: &clock)
            print("ingest round \(round)/\(rounds): \(bodies.count) batches × \(batchSize) readings through switchd, \(concurrency) in flight, then the same rows raw, alone and with their batch and summary …")
            let cpuBefore = try ProcessUsage.read(pid: switchd.process.pid)
            let clientBefore = try ProcessUsage.read(pid: getpid())
            let seconds = try await postAll(bodies, through: http, token: switchd.adminToken)
            let cpuAfter = try ProcessUsage.read(pid: switchd.process.pid)
            let clientAfter = try ProcessUsage.read(pid: getpid())
            clientCPU.append((clientAfter.cpuSeconds - clientBefore.cpuSeconds) / Double(bodies.count * batchSize))
            switchdRates.append(Double(bodies.count * batchSize) / seconds)
            switchdCPU.append((cpuAfter.cpuSeconds - cpuBefore.cpuSeconds) / Double(bodies.count * batchSize))
            rawRates.append(try raw.round().rowsPerSecond)
            let likeRound = try like.round()
            likeRates.append(likeRound.rowsPerSecond)
            likeCPU.append(likeRound.cpuSecondsPerRow)
        }
        return Result(
            readings: (readings / batchSize) * batchSize, randomReadingIDs: randomReadingIDs, switchdPerSecond: switchdRates,
            rawPerSecond: rawRates, likePerSecond: likeRates, switchdCPUPerReading: switchdCPU, likeCPUPerRow: likeCPU,
            clientCPUPerReading: clientCPU
        )
    }

    /// Posts `bodies`, `concurrency` in flight at a time; returns the seconds it took.
    func postAll(_ bodies: [Data], through http: FleetHTTP, token: String) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            for _ in 0..<min(concurrency, bodies.count) {
                let body = bodies[next]
                next += 1
                group.addTask { try await post(http, token: token, body) }
            }
            while try await group.next() != nil, next < bodies.count {
                let body = bodies[next]
                next += 1
                group.addTask { try await post(http, token: token, body) }
            }
        }
        return milliseconds(from: start, to: DispatchTime.now().uptimeNanoseconds) / 1000
    }

    func post(_ http: FleetHTTP, token: String, _ body: Data) async throws {
        let answer = try await http.send(.POST, "/v1/measurements", token: token, body: body)
        guard answer.status == 201 else {
            throw HarnessError("ingest answered \(answer.status): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        }
    }

    /// Batches of alternating Wi-Fi and BLE readings 1 ms apart from `clock` on (which is moved
    /// past the last), encoded once up front so the client's JSON work is not timed.
    func makeBodies(revision: Int, count: Int, clock: inout Date) throws -> [Data] {
        let floor = SimulatedFloor.demo()
        var generator = SeededGenerator(seed: 1)
        let encoder = JSONCoding.encoder()
        let start = clock
        clock = start.addingTimeInterval(Double(count * batchSize) / 1000)
        return try (0..<count).map { batchIndex in
            let measurements = (0..<batchSize).map { index -> Measurement in
                let time = start.addingTimeInterval(Double(batchIndex * batchSize + index) / 1000)
                let id = randomReadingIDs ? UUID() : UUID.timeOrdered(at: time, random: UUID().uuid)
                let rssi = -40 - Int(generator.next() % 50)
                if index % 2 == 0 {
                    let ap = floor.accessPoints[index / 2 % floor.accessPoints.count]
                    return Measurement(id: id, time: time, rssi: rssi, scan: batchIndex, observation: .wifi(ap.wifi))
                }
                let beacon = floor.beacons[index / 2 % floor.beacons.count]
                return Measurement(id: id, time: time, rssi: rssi, scan: batchIndex, observation: .ble(beacon.ble))
            }
            return try encoder.encode(MeasurementBatch(batchID: UUID(), scannerID: try ScannerID("bench"), switchRevision: revision, measurements: measurements))
        }
    }
}

typealias Measurement = ScanContract.Measurement
