import Clocks
import Foundation
import Harness
import ScanContract
import Testing
@testable import scannerd

/// The whole daemon as `scannerd run` builds it, with switchd scripted at the HTTP edge and its
/// services' time on a clock the test advances.
@Suite("scannerd wired together", .timeLimit(.minutes(1)))
struct ScannerdTests {
    func configuration(_ directory: TemporaryDirectory) -> ScannerdConfiguration {
        ScannerdConfiguration(
            switchd: URL(string: "http://switchd.invalid:8080")!, scannerID: testScanner, stateDirectory: directory.file("state"),
            radio: .simulated,
            simulation: SimulationSettings(seed: 3, advertisingRate: 100, wifiScanDuration: .milliseconds(30)),
            batchSize: 500, batchAge: .milliseconds(50), events: .file(directory.file("events.jsonl")),
            countersInterval: .milliseconds(50)
        )
    }

    /// Runs every service until the test cancels the returned task.
    func start(_ scannerd: Scannerd) -> Task<Void, any Error> {
        Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for service in scannerd.services {
                    group.addTask { try await service.run() }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test func aSurveyIsScannedSealedAndUploaded() async throws {
        let directory = try TemporaryDirectory()
        let survey = ScanSwitch(
            scannerID: testScanner, scanning: true, mode: .survey, roomID: 1, locationID: 4, storeData: true,
            stopAfter: .scans(2), revision: 2, changedAt: Date(timeIntervalSince1970: 1_795_000_000)
        )
        let location = Location(id: 4, roomID: 1, floorID: 1, name: "by the door", x: 3, y: 4)
        let client = ScriptedHTTPClient { request, _ in
            switch (request.method, request.url.path, request.url.query) {
            case (.get, "/v1/scanners/test-scanner/switch", nil):
                return HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(survey))
            case (.get, "/v1/locations/4", nil):
                return HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(location))
            case (.post, "/v1/measurements", nil):
                return try storedReceipt(for: request)
            default:
                return try await heldUntilCancelled() // a long-poll with nothing new
            }
        }
        let clock = TestClock()
        let scannerd = try Scannerd(configuration(directory), http: client, logger: quietLogger, clock: clock)
        let running = start(scannerd)
        defer { running.cancel() }
        let eventLog = EventLogReader(path: directory.file("events.jsonl"))

        // The survey is scanned, and every batch it sealed acknowledged.
        try await clock.step(by: .milliseconds(10)) {
            let timeline = try eventLog.sessionTimeline()
            let sealed = try eventLog.events("sealed").compactMap { $0["batchID"] as? String }
            let acked = try eventLog.events("acked").compactMap { $0["batchID"] as? String }
            return timeline.contains("idle 2") && !sealed.isEmpty && Set(sealed) == Set(acked)
        }
        #expect(try eventLog.sessionTimeline() == ["switch 2", "scanning 2", "idle 2"])
        let posted = try await client.requests.filter { $0.method == .post }.map { try decodeBatch($0.body!) }
        let readings = posted.flatMap(\.measurements)
        #expect(posted.allSatisfy { $0.switchRevision == 2 && $0.scannerID == testScanner })
        #expect(Set(readings.filter { $0.kind == .wifi }.map(\.scan)) == [0, 1])
        #expect(Set(readings.map(\.kind)) == [.wifi, .ble])
        let sealedIDs = try eventLog.events("sealed").flatMap { $0["ids"] as? [String] ?? [] }
        #expect(Set(sealedIDs) == Set(readings.map(\.id.uuidString)), "every sealed reading was uploaded")
        #expect(try await client.requests.filter { $0.url.path == "/v1/locations/4" }.count == 1)
        #expect(try SwitchStore(path: directory.file("state/switch.json")).load() == survey)

        #expect(throws: ScannerdError.self, "one scannerd per state directory") {
            _ = try Scannerd(configuration(directory), http: client, logger: quietLogger)
        }
    }

    @Test func countersReachSwitchdWhileScanning() async throws {
        let directory = try TemporaryDirectory()
        let survey = ScanSwitch(
            scannerID: testScanner, scanning: true, mode: .survey, roomID: 1, locationID: 4, storeData: true,
            stopAfter: nil, revision: 3, changedAt: Date(timeIntervalSince1970: 1_795_000_000)
        )
        let location = Location(id: 4, roomID: 1, floorID: 1, name: "by the door", x: 3, y: 4)
        let client = ScriptedHTTPClient { request, _ in
            switch (request.method, request.url.path) {
            case (.get, "/v1/scanners/test-scanner/switch") where request.url.query == nil:
                return HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(survey))
            case (.get, "/v1/locations/4"):
                return HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(location))
            case (.put, "/v1/scanners/test-scanner/counters"):
                return HTTPResponse(status: 204, body: Data())
            case (.post, "/v1/measurements"):
                return try storedReceipt(for: request)
            default:
                return try await heldUntilCancelled()
            }
        }
        let clock = TestClock()
        let scannerd = try Scannerd(configuration(directory), http: client, logger: quietLogger, clock: clock)
        let running = start(scannerd)
        defer { running.cancel() }

        func reports() async throws -> [ScannerCounters] {
            try await client.requests.filter { $0.method == .put }.map { try JSONCoding.decoder().decode(ScannerCounters.self, from: $0.body!) }
        }
        try await clock.step(by: .milliseconds(10)) {
            try await reports().contains { $0.advertisements > 0 && $0.wifiScans > 0 }
        }
        let sent = try await reports()
        #expect(Set(sent.map(\.run)) == [scannerd.counters.run], "one run")
        #expect(zip(sent, sent.dropFirst()).allSatisfy { $0.advertisements <= $1.advertisements }, "counts only grow")
    }
}
