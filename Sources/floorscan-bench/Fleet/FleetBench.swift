import Dispatch
import Foundation
import Harness
import NIOHTTP1
import Positioning
import ScanContract

/// N simulated scanners on one switchd (a child process, loopback HTTP), each holding its switch
/// long-poll and, in the load phase, posting a batch of `readings` every `interval`. Measures
/// switchd's CPU and memory with the fleet idle and under load, the time a flip takes to reach
/// its scanner in both, how many of the offered readings were stored, and upload latency.
/// Each scanner holds two connections (its long-poll, its upload), so switchd runs with
/// `--max-connections` 2N + 100 (lowered by switchd itself to fit an open-file limit).
///
/// With `postgres`, two switchd instances share one throwaway PostgreSQL server (docs/scale-out.md):
/// every long-poll is held by B, uploads alternate between A and B by scanner, flips are PATCHed
/// on A, so each flip crosses instances; CPU, memory and descriptors are the two instances'
/// sums. The switches locate (surveying needs floors, not on PostgreSQL yet) and store their
/// readings; a flip toggles a `{seconds: T}` stop condition.
struct FleetBench {
    var scanners: Int
    var readings: Int
    var interval: Duration
    /// Seconds of the idle phase's CPU measurement (long-polls re-arm every 30 s).
    var idleSeconds: Int
    var loadSeconds: Int
    var flips: Int
    /// switchd's open-file limit (`prlimit --nofile`); nil leaves the one it inherits.
    var openFileLimit: Int?
    /// Random (version 4) reading IDs instead of time-ordered ones, as scannerd sent them before.
    var randomReadingIDs = false
    /// Two instances on one PostgreSQL server instead of one on SQLite.
    var postgres = false

    /// The switchd instances of a run and the clients that reach them.
    struct Targets {
        var instances: [SwitchdInstance]
        /// One client per instance, in the order of ``instances``.
        var clients: [FleetHTTP]
        /// Setup and flips go to the first instance, long-polls to the last.
        var admin: FleetHTTP { clients[0] }
        var polls: FleetHTTP { clients[clients.count - 1] }

        func uploads(of scanner: SimulatedScanner) -> FleetHTTP { clients[scanner.index % clients.count] }

        /// The instances' usage added up.
        func usage() throws -> ProcessUsage {
            try instances.map { try ProcessUsage.read(pid: $0.process.pid) }.reduce(ProcessUsage(cpuSeconds: 0, residentBytes: 0, peakResidentBytes: 0, openDescriptors: 0)) {
                ProcessUsage(
                    cpuSeconds: $0.cpuSeconds + $1.cpuSeconds, residentBytes: $0.residentBytes + $1.residentBytes,
                    peakResidentBytes: $0.peakResidentBytes + $1.peakResidentBytes, openDescriptors: $0.openDescriptors + $1.openDescriptors
                )
            }
        }
    }

    struct Result {
        var scanners: Int
        var readings: Int
        var interval: Duration
        var openFileLimit: Int?
        var setupSeconds: Double
        var idleCorePercent: Double
        var idleFlips: Stats
        var idleFlipsMissed: Int
        var idleFlipsRefused: Int
        var loadCorePercent: Double
        var loadFlips: Stats
        /// Of the flips under load: from sending the PATCH to its answer (the switch stored).
        var loadFlipsAnswered: Stats
        var loadFlipsMissed: Int
        var loadFlipsRefused: Int
        var counts: FleetTally.Counts
        var postLatency: Stats
        var storedByServer: Double
        var residentBytes: Int
        var peakResidentBytes: Int
        var openDescriptors: Int
        var switchdAlive: Bool
        var healthAfter: Int
        var shedding: Shedding
        /// switchd instances (2 on PostgreSQL); CPU, memory and descriptors are their sums.
        var instances = 1
    }

    /// Descriptors the client needs besides its connections: the flips' and setup's own
    /// connections, the event loops, switchd's pipes.
    static let clientDescriptorsBeyondConnections = 256

    func run(in folder: TemporaryFolder) async throws -> Result {
        let label = "switchd-fleet-\(scanners)"
        let descriptors = try BenchDescriptors.raising(toFit: scanners * 2 + Self.clientDescriptorsBeyondConnections)
        let switchdLimit = openFileLimit ?? descriptors.switchdLimit
        let server = postgres ? try await PostgresServer() : nil
        var arguments = ["--log-level", "warning", "--max-connections", String(scanners * 2 + 100)]
        var tokenFile: String?
        if let server {
            try await server.createDatabase("fleet")
            arguments += ["--database", server.url(database: "fleet")]
            tokenFile = try writeTokenFile("fst_\(UUID().uuidString)", in: folder, label: "admin")
        }
        var instances: [SwitchdInstance] = []
        defer { for instance in instances { instance.process.signal(SIGKILL) } }
        for name in postgres ? ["a", "b"] : [""] {
            instances.append(try await SwitchdInstance.start(
                in: folder, arguments: arguments, label: label + name, stateName: label + name,
                openFileLimit: switchdLimit, openFileHardLimit: openFileLimit == nil ? descriptors.inherited.hard : nil, adminTokenFile: tokenFile
            ))
        }
        let clients = instances.map { FleetHTTP(baseURL: $0.baseURL, connections: scanners * 2 + 64) }
        var result: Result
        do {
            result = try await measure(Targets(instances: instances, clients: clients))
        } catch {
            for client in clients { try? await client.shutdown() }
            await server?.remove()
            throw error
        }
        for client in clients { try? await client.shutdown() }
        await server?.remove()
        result.openFileLimit = switchdLimit
        result.instances = instances.count
        return result
    }

    private func measure(_ targets: Targets) async throws -> Result {
        let http = targets.admin
        let admin = targets.instances[0].adminToken
        let log = FlipLog()
        let tally = FleetTally()

        print("fleet of \(scanners): registering scanners, tokens and switches …")
        let setupStart = DispatchTime.now().uptimeNanoseconds
        let (locations, fleet) = try await setUp(http, admin: admin)
        let setupSeconds = milliseconds(from: setupStart, to: DispatchTime.now().uptimeNanoseconds) / 1000

        return try await withThrowingTaskGroup(of: Void.self) { group in
            for scanner in fleet {
                group.addTask { await scanner.followSwitch(targets.polls, log: log, tally: tally) }
            }
            while tally.armed.load(ordering: .relaxed) < scanners {
                try await Task.sleep(for: .milliseconds(100))
            }
            try await Task.sleep(for: .seconds(3))

            print("fleet of \(scanners): idle, \(scanners) long-polls held, \(idleSeconds) s …")
            let idleStart = try targets.usage()
            try await Task.sleep(for: .seconds(idleSeconds))
            let idleEnd = try targets.usage()
            let idleCore = corePercent(from: idleStart, to: idleEnd, over: Double(idleSeconds))
            print("fleet of \(scanners): \(flips) flips while idle …")
            let (idleFlips, _, idleMissed, idleRefused) = try await flip(flips, every: .milliseconds(100), fleet: fleet, locations: locations, http, admin: admin, log: log)

            print("fleet of \(scanners): uploading \(readings) readings every \(interval) per scanner …")
            for scanner in fleet {
                let phase = interval * Double.random(in: 0..<1)
                group.addTask { await scanner.upload(targets.uploads(of: scanner), every: interval, phase: phase, readings: readings, tally: tally) }
            }
            try await Task.sleep(for: interval * 3)
            tally.reset()
            tally.measuring.store(true, ordering: .relaxed)
            tally.acking.store(true, ordering: .relaxed)
            let loadStart = try targets.usage()
            let loadClock = DispatchTime.now().uptimeNanoseconds
            let flipping = Task {
                try await flip(flips, every: .seconds(Double(loadSeconds) / Double(flips + 1)), fleet: fleet, locations: locations, http, admin: admin, log: log)
            }
            try await Task.sleep(for: .seconds(loadSeconds))
            tally.measuring.store(false, ordering: .relaxed)
            let loadEnd = try targets.usage()
            let loadCore = corePercent(from: loadStart, to: loadEnd, over: milliseconds(from: loadClock, to: DispatchTime.now().uptimeNanoseconds) / 1000)
            let (loadFlips, loadAnswered, loadMissed, loadRefused) = try await flipping.value
            try await Task.sleep(for: .seconds(5))
            tally.acking.store(false, ordering: .relaxed)
            let counts = tally.snapshot
            let alive = targets.instances.allSatisfy(\.process.isRunning)
            var statuses: [Int] = []
            var stored = 0.0
            var shedding = Shedding(samples: nil, log: "")
            // Per instance: the worst health, the readings stored added up, the first one's shedding.
            for (instance, client) in zip(targets.instances, targets.clients).reversed() {
                let up = instance.process.isRunning
                statuses.append(up ? (try? await client.send(.GET, "/healthz", token: admin, timeout: .seconds(10)).status) ?? 0 : 0)
                let metrics = up ? (try? await client.send(.GET, "/metrics", token: admin, timeout: .seconds(10))) : nil
                let samples = metrics.map { PrometheusSamples(String(decoding: $0.body, as: UTF8.self)) }
                stored += samples?["switchd_measurements_stored_total"] ?? .nan
                shedding = Shedding(samples: samples, log: instance.process.stderrTail(.max))
            }
            let health = statuses.first { $0 != 200 } ?? 200
            let usage = alive ? try targets.usage() : loadEnd
            group.cancelAll()
            for instance in targets.instances { await instance.process.terminate() }
            return Result(
                scanners: scanners, readings: readings, interval: interval, openFileLimit: openFileLimit, setupSeconds: setupSeconds,
                idleCorePercent: idleCore, idleFlips: Stats(idleFlips), idleFlipsMissed: idleMissed, idleFlipsRefused: idleRefused,
                loadCorePercent: loadCore, loadFlips: Stats(loadFlips), loadFlipsAnswered: Stats(loadAnswered), loadFlipsMissed: loadMissed, loadFlipsRefused: loadRefused,
                counts: counts, postLatency: Stats(counts.postLatencies), storedByServer: stored,
                residentBytes: usage.residentBytes, peakResidentBytes: usage.peakResidentBytes, openDescriptors: usage.openDescriptors,
                switchdAlive: alive, healthAfter: health, shedding: shedding
            )
        }
    }

    /// Registers the scanners with a token each, and turns each one's switch on, surveying the
    /// first of two locations; returns the two locations and the fleet.
    private func setUp(_ http: FleetHTTP, admin: String) async throws -> ([Int64], [SimulatedScanner]) {
        // Retried: under a small open-file limit switchd closes idle connections and answers 503.
        // A creation answered 409 on a later attempt was done by an earlier one (only scanners
        // are created under a name of the bench's choosing).
        func call<Body: Encodable, Answer: Decodable>(_ method: HTTPMethod, _ path: String, _ body: Body, as: Answer.Type) async throws -> Answer? {
            let (answer, sent) = try await http.sendRetrying(method, path, token: admin, body: try JSONCoding.encoder().encode(body))
            if answer.status == 409, sent > 1 { return nil }
            guard (200..<300).contains(answer.status) else {
                throw HarnessError("\(method) \(path) answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self).prefix(300))")
            }
            return try JSONCoding.decoder().decode(Answer.self, from: answer.body)
        }
        func required<Answer>(_ answer: Answer?) throws -> Answer {
            guard let answer else { throw HarnessError("fleet setup: a request answered 409 after a retry") }
            return answer
        }
        var locations: [Int64] = []
        if !postgres {
            let floor = try required(await call(.POST, "/v1/floors", NewFloor(name: "Fleet floor"), as: Floor.self))
            let room = try required(await call(.POST, "/v1/rooms", NewRoom(floorID: floor.id, name: "Fleet room"), as: Room.self))
            for x in [2.0, 12.0] {
                locations.append(try required(await call(.POST, "/v1/locations", NewLocation(roomID: room.id, x: x, y: 3), as: Location.self)).id)
            }
        }
        let on = postgres ? SwitchPatch(scanning: true, storeData: true) : SwitchPatch(scanning: true, mode: .survey, locationID: .set(locations[0]))
        let template = try BatchTemplate(readings: readings, floor: SimulatedFloor.demo(), timeOrderedIDs: !randomReadingIDs)
        let fleet = try await withThrowingTaskGroup(of: SimulatedScanner.self) { group in
            var fleet: [SimulatedScanner] = []
            for index in 0..<scanners {
                if index >= 32 { fleet.append(try await group.next()!) }
                group.addTask {
                    let id = try ScannerID(String(format: "fleet-%05d", index))
                    _ = try await call(.POST, "/v1/scanners", NewScanner(id: id, name: "simulated \(index)"), as: Scanner.self)
                    let token = try required(await call(.POST, "/v1/tokens", NewToken(name: "fleet \(index)", role: .scanner, scannerID: id), as: IssuedToken.self))
                    let on = try required(await call(.PATCH, "/v1/scanners/\(id)/switch", on, as: ScanSwitch.self))
                    return SimulatedScanner(index: index, id: id, token: token.token, revision: on.revision, template: template)
                }
            }
            for try await scanner in group { fleet.append(scanner) }
            return fleet.sorted { $0.index < $1.index }
        }
        return (locations, fleet)
    }

    /// `count` flips, one at a time, each of a random scanner's switch to its other location,
    /// timed from sending the PATCH to that scanner's long-poll answering with the new revision;
    /// `every` apart. Returns the times (ms), the times from the PATCH to its answer, and how
    /// many never arrived within 30 s; a flip
    /// still refused (503/429, or its connection closed) after three tries, as by a switchd out
    /// of descriptors, counts as missed and refused.
    private func flip(
        _ count: Int, every: Duration, fleet: [SimulatedScanner], locations: [Int64], _ http: FleetHTTP, admin: String, log: FlipLog
    ) async throws -> (times: [Double], answered: [Double], missed: Int, refused: Int) {
        var times: [Double] = []
        var answered: [Double] = []
        var missed = 0
        var refused = 0
        for _ in 0..<count {
            let scanner = fleet.randomElement()!
            let toFirst = !scanner.atFirstLocation.load(ordering: .relaxed)
            let patch = locations.isEmpty
                ? SwitchPatch(stopAfter: .set(toFirst ? nil : .seconds(86_400)))
                : SwitchPatch(scanning: true, mode: .survey, locationID: .set(toFirst ? locations[0] : locations[1]))
            let sent = DispatchTime.now().uptimeNanoseconds
            let body = try JSONCoding.encoder().encode(patch)
            // A switchd out of connections answers 503 with Retry-After; the flip's time runs on.
            // One that still finds no connection after three tries (closed or refused) is counted.
            let answer: FleetHTTP.Answer
            do {
                (answer, _) = try await http.sendRetrying(.PATCH, "/v1/scanners/\(scanner.id)/switch", token: admin, body: body, attempts: 3)
            } catch {
                (missed, refused) = (missed + 1, refused + 1)
                continue
            }
            if answer.status == 503 || answer.status == 429 {
                (missed, refused) = (missed + 1, refused + 1)
                continue
            }
            guard answer.status == 200 else { throw HarnessError("flip answered \(answer.status)") }
            answered.append(milliseconds(from: sent, to: DispatchTime.now().uptimeNanoseconds))
            scanner.atFirstLocation.store(toFirst, ordering: .relaxed)
            let revision = try JSONCoding.decoder().decode(ScanSwitch.self, from: answer.body).revision
            if let arrived = await log.arrival(scanner: scanner.index, revision: revision, timeout: .seconds(30)) {
                times.append(milliseconds(from: sent, to: arrived))
            } else {
                missed += 1
            }
            try await Task.sleep(for: every)
        }
        return (times, answered, missed, refused)
    }
}
