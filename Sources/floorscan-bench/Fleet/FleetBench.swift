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
    }

    /// Descriptors the client needs besides its connections: the flips' and setup's own
    /// connections, the event loops, switchd's pipes.
    static let clientDescriptorsBeyondConnections = 256

    func run(in folder: TemporaryFolder) async throws -> Result {
        let label = "switchd-fleet-\(scanners)"
        let descriptors = try BenchDescriptors.raising(toFit: scanners * 2 + Self.clientDescriptorsBeyondConnections)
        let switchdLimit = openFileLimit ?? descriptors.switchdLimit
        let switchd = try await SwitchdInstance.start(
            in: folder, arguments: ["--log-level", "warning", "--max-connections", String(scanners * 2 + 100)], label: label, stateName: label,
            openFileLimit: switchdLimit, openFileHardLimit: openFileLimit == nil ? descriptors.inherited.hard : nil
        )
        defer { switchd.process.signal(SIGKILL) }
        var result = try await withFleetHTTP(baseURL: switchd.baseURL, connections: scanners * 2 + 64) { http in
            try await measure(switchd, http)
        }
        result.openFileLimit = switchdLimit
        return result
    }

    private func measure(_ switchd: SwitchdInstance, _ http: FleetHTTP) async throws -> Result {
        let admin = switchd.adminToken
        let log = FlipLog()
        let tally = FleetTally()

        print("fleet of \(scanners): registering scanners, tokens and switches …")
        let setupStart = DispatchTime.now().uptimeNanoseconds
        let (locations, fleet) = try await setUp(http, admin: admin)
        let setupSeconds = milliseconds(from: setupStart, to: DispatchTime.now().uptimeNanoseconds) / 1000

        return try await withThrowingTaskGroup(of: Void.self) { group in
            for scanner in fleet {
                group.addTask { await scanner.followSwitch(http, log: log, tally: tally) }
            }
            while tally.armed.load(ordering: .relaxed) < scanners {
                try await Task.sleep(for: .milliseconds(100))
            }
            try await Task.sleep(for: .seconds(3))

            print("fleet of \(scanners): idle, \(scanners) long-polls held, \(idleSeconds) s …")
            let idleStart = try ProcessUsage.read(pid: switchd.process.pid)
            try await Task.sleep(for: .seconds(idleSeconds))
            let idleEnd = try ProcessUsage.read(pid: switchd.process.pid)
            let idleCore = corePercent(from: idleStart, to: idleEnd, over: Double(idleSeconds))
            print("fleet of \(scanners): \(flips) flips while idle …")
            let (idleFlips, _, idleMissed, idleRefused) = try await flip(flips, every: .milliseconds(100), fleet: fleet, locations: locations, http, admin: admin, log: log)

            print("fleet of \(scanners): uploading \(readings) readings every \(interval) per scanner …")
            for scanner in fleet {
                let phase = interval * Double.random(in: 0..<1)
                group.addTask { await scanner.upload(http, every: interval, phase: phase, readings: readings, tally: tally) }
            }
            try await Task.sleep(for: interval * 3)
            tally.reset()
            tally.measuring.store(true, ordering: .relaxed)
            tally.acking.store(true, ordering: .relaxed)
            let loadStart = try ProcessUsage.read(pid: switchd.process.pid)
            let loadClock = DispatchTime.now().uptimeNanoseconds
            let flipping = Task {
                try await flip(flips, every: .seconds(Double(loadSeconds) / Double(flips + 1)), fleet: fleet, locations: locations, http, admin: admin, log: log)
            }
            try await Task.sleep(for: .seconds(loadSeconds))
            tally.measuring.store(false, ordering: .relaxed)
            let loadEnd = try ProcessUsage.read(pid: switchd.process.pid)
            let loadCore = corePercent(from: loadStart, to: loadEnd, over: milliseconds(from: loadClock, to: DispatchTime.now().uptimeNanoseconds) / 1000)
            let (loadFlips, loadAnswered, loadMissed, loadRefused) = try await flipping.value
            try await Task.sleep(for: .seconds(5))
            tally.acking.store(false, ordering: .relaxed)
            let counts = tally.snapshot
            let alive = switchd.process.isRunning
            let health = alive ? (try? await http.send(.GET, "/healthz", token: admin, timeout: .seconds(10)).status) ?? 0 : 0
            let metrics = alive ? (try? await http.send(.GET, "/metrics", token: admin, timeout: .seconds(10))) : nil
            let samples = metrics.map { PrometheusSamples(String(decoding: $0.body, as: UTF8.self)) }
            let stored = samples?["switchd_measurements_stored_total"] ?? .nan
            let shedding = Shedding(samples: samples, log: switchd.process.stderrTail(.max))
            let usage = alive ? try ProcessUsage.read(pid: switchd.process.pid) : loadEnd
            group.cancelAll()
            await switchd.process.terminate()
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
        let floor = try required(await call(.POST, "/v1/floors", NewFloor(name: "Fleet floor"), as: Floor.self))
        let room = try required(await call(.POST, "/v1/rooms", NewRoom(floorID: floor.id, name: "Fleet room"), as: Room.self))
        var locations: [Int64] = []
        for x in [2.0, 12.0] {
            locations.append(try required(await call(.POST, "/v1/locations", NewLocation(roomID: room.id, x: x, y: 3), as: Location.self)).id)
        }
        let first = locations[0]
        let template = try BatchTemplate(readings: readings, floor: SimulatedFloor.demo(), timeOrderedIDs: !randomReadingIDs)
        let fleet = try await withThrowingTaskGroup(of: SimulatedScanner.self) { group in
            var fleet: [SimulatedScanner] = []
            for index in 0..<scanners {
                if index >= 32 { fleet.append(try await group.next()!) }
                group.addTask {
                    let id = try ScannerID(String(format: "fleet-%05d", index))
                    _ = try await call(.POST, "/v1/scanners", NewScanner(id: id, name: "simulated \(index)"), as: Scanner.self)
                    let token = try required(await call(.POST, "/v1/tokens", NewToken(name: "fleet \(index)", role: .scanner, scannerID: id), as: IssuedToken.self))
                    let on = try required(await call(
                        .PATCH, "/v1/scanners/\(id)/switch", SwitchPatch(scanning: true, mode: .survey, locationID: .set(first)), as: ScanSwitch.self
                    ))
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
            let patch = SwitchPatch(scanning: true, mode: .survey, locationID: .set(toFirst ? locations[0] : locations[1]))
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
