import Dispatch
import Foundation
import GRDB
import Harness
import ScanContract
import Testing
@testable import SwitchdStore

/// `GET /v1/emitters` reads the emitter summary that ingest (once per batch) and the triggers
/// (moves and deletes) keep, and answers exactly as the aggregate over every stored reading did
/// (``EmitterScan``, kept here as the reference), on a real SQLite file: readings stored before
/// the summary existed (filled by its migration), added after, batches of many readings through
/// ingest, a location moved, a location deleted, a room cleared; and after retention, the counts.
@Suite("Emitter summary")
struct EmitterSummaryTests {
    static let previousMigration = "v4-tag-presence-events"

    @Test func theSummaryAnswersAsEveryReadingDoes() async throws {
        let folder = try TemporaryFolder("emitters")
        defer { folder.remove() }
        let queue = try DatabaseQueue(path: folder.url.appendingPathComponent("switchd.sqlite").path, configuration: AppDatabase.configuration())
        try AppDatabase.migrator.migrate(queue, upTo: Self.previousMigration)
        let places = try await queue.write { db in try EmitterReadings.places(db) }
        try await queue.write { db in try EmitterReadings.insert(db, batch: 1, receivedMs: 0, readings: 0..<3_000, places: places) }

        let database = try AppDatabase(queue)  // the summary's migration fills it from the 3,000 readings
        try await Self.expectSameAnswers(database, "filled by the migration")

        try await queue.write { db in try EmitterReadings.insertSummarized(db, batch: 2, receivedMs: 0, readings: 3_000..<6_000, places: places) }
        try await Self.expectSameAnswers(database, "a batch of 3,000 added to the summary at once")

        let ingested = try await Self.ingestSurvey(database, at: places.locations[1].id)
        #expect(ingested == 3)
        try await Self.expectSameAnswers(database, "kept through ingest")

        _ = try await database.updateLocation(places.locations[0].id, with: LocationPatch(roomID: places.rooms[1]))
        try await Self.expectSameAnswers(database, "a location moved to another room")

        _ = try await database.deleteLocation(places.locations[2].id, at: Date())
        try await Self.expectSameAnswers(database, "a location deleted with its readings")

        _ = try await database.clearRoom(places.rooms[1])
        try await Self.expectSameAnswers(database, "a room cleared")
        let cells = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM emitter_cell WHERE location_id = ?", arguments: [places.locations[0].id]) }
        #expect(cells == 0, "a cell goes with its last reading")
    }

    /// Retention deletes old locate readings, some of a cell's: the counts and means follow the
    /// kept readings; the cell's time span and maximum still cover what it held.
    @Test func afterRetentionTheCountsFollowTheKeptReadings() async throws {
        let folder = try TemporaryFolder("emitters-retention")
        defer { folder.remove() }
        let database = try AppDatabase.open(stateDirectory: folder.url.path)
        let places = try await database.writer.write { db in try EmitterReadings.places(db) }
        try await database.writer.write { db in
            try EmitterReadings.insertSummarized(db, batch: 1, receivedMs: 0, readings: 0..<2_000, places: places)
            try EmitterReadings.insertSummarized(db, batch: 2, receivedMs: Date().milliseconds, readings: 2_000..<4_000, places: places)
        }
        let pruned = try await database.pruneHistory(before: Date().addingTimeInterval(-86_400))
        #expect(pruned.readings > 0)
        let (summary, reference) = try await Self.answers(database)
        #expect(summary.map(\.emitter) == reference.map(\.emitter))
        for (kept, truth) in zip(summary, reference) {
            #expect(kept.readings == truth.readings && kept.meanRSSI == truth.meanRSSI, "\(kept.emitter)")
            #expect(kept.locations == truth.locations && kept.strongestAt == truth.strongestAt, "\(kept.emitter)")
            #expect(kept.firstSeen <= truth.firstSeen && kept.lastSeen >= truth.lastSeen && kept.maxRSSI >= truth.maxRSSI, "\(kept.emitter)")
        }
    }

    /// The request's cost against the history's size: the summary and the aggregate over every
    /// reading, timed (printed, not asserted) at 10,000 readings and at
    /// `FLOORSCAN_EMITTER_READINGS` (200,000 unless set), with the same answers.
    @Test func theRequestCostsTheSameWhateverTheHistory() async throws {
        let folder = try TemporaryFolder("emitters-size")
        defer { folder.remove() }
        let database = try AppDatabase.open(stateDirectory: folder.url.path)
        let places = try await database.writer.write { db in try EmitterReadings.places(db) }
        let large = ProcessInfo.processInfo.environment["FLOORSCAN_EMITTER_READINGS"].flatMap(Int.init) ?? 200_000
        for (from, size) in [(0, 10_000), (10_000, large)] {
            try await database.writer.write { db in
                try EmitterReadings.insertSummarized(db, batch: Int64(size), receivedMs: 0, readings: from..<size, places: places)
            }
            let (summaryTime, summary) = try await Self.timed { try await database.emitters(afterKey: nil, limit: 100_000).items }
            let (scanTime, reference) = try await Self.timed { try await database.read { db in try EmitterScan.emitters(db) } }
            #expect(summary == reference)
            print("GET /v1/emitters, \(size) readings, \(summary.count) emitters: summary \(summaryTime) ms, aggregate over every reading \(scanTime) ms")
        }
    }

    static func timed<T>(_ body: () async throws -> T) async throws -> (Int, T) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try await body()
        return (Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000), value)
    }

    static func answers(_ database: AppDatabase) async throws -> (summary: [EmitterSummary], reference: [EmitterSummary]) {
        let summary = try await database.emitters(afterKey: nil, limit: 100_000).items
        let reference = try await database.read { db in try EmitterScan.emitters(db) }
        return (summary, reference)
    }

    static func expectSameAnswers(_ database: AppDatabase, _ stage: Comment, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (summary, reference) = try await answers(database)
        #expect(!reference.isEmpty, stage, sourceLocation: sourceLocation)
        #expect(summary.count == reference.count, stage, sourceLocation: sourceLocation)
        for (kept, truth) in zip(summary, reference) where kept != truth {
            Issue.record("\(stage): \(kept) is not \(truth)", sourceLocation: sourceLocation)
        }
    }

    /// Three readings stored through ingest, surveying `locationID`: an access point the raw
    /// readings also hold and a beacon.
    static func ingestSurvey(_ database: AppDatabase, at locationID: Int64) async throws -> Int {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let revision = try await database.updateSwitch(
            of: ScannerID.default, with: SwitchPatch(scanning: true, mode: .survey, locationID: .set(locationID)), at: now
        ).scanSwitch.revision
        let readings = [
            ScanContract.Measurement(time: now, rssi: -20, scan: 0, observation: .wifi(WiFiObservation(
                bssid: BSSID(rawValue: EmitterReadings.firstAccessPoint), ssid: "renamed", frequencyMHz: 2412
            ))),
            ScanContract.Measurement(time: now.addingTimeInterval(1), rssi: -90, scan: 0, observation: .wifi(WiFiObservation(
                bssid: BSSID(rawValue: EmitterReadings.firstAccessPoint + 1), ssid: "", frequencyMHz: 5180
            ))),
            ScanContract.Measurement(time: now, rssi: -66, scan: 0, observation: .ble(BLEObservation(
                address: BLEAddress(rawValue: 0xC0_FF_EE_00_00_42), beacon: BeaconID(uuid: UUID(), major: 7, minor: 8), txPower: -59
            ))),
        ]
        let batch = MeasurementBatch(batchID: UUID(), scannerID: .default, switchRevision: revision, measurements: readings)
        return try await database.ingest(batch, at: now).receipt.stored
    }
}
