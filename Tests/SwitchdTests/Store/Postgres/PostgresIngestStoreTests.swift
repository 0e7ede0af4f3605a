import Foundation
import ScanContract
import Testing
@testable import SwitchdStore

/// Ingest and the measurement feed, with the same assertions on SQLite and on a real PostgreSQL
/// server (docs/scale-out.md): receipts, duplicates, refusals that store nothing, a group whose
/// refused batch is rolled back alone, the emitter summary, the feed's filters and its end, and
/// a `{scans: N}` switch turned off by the batch completing it.
@Suite("Ingest and the measurement feed on both databases", postgresInstalled, .postgresServer)
struct PostgresIngestStoreTests {
    static let now = Date(milliseconds: 1_790_000_100_000)
    static let scanner = ScannerID.default

    /// Turns the default scanner's switch on (locate mode) and returns its revision.
    static func switchOn(_ database: AppDatabase, storeData: Bool = true, stopAfter: StopCondition? = nil) async throws -> Int {
        try await database.updateSwitch(
            of: scanner, with: SwitchPatch(scanning: true, storeData: storeData, stopAfter: .set(stopAfter)), at: now
        ).scanSwitch.revision
    }

    /// Counts stored in every table ingest writes, for "nothing stored" checks.
    static func storedCounts(_ database: AppDatabase) async throws -> [Int64] {
        try await database.readStatements { sql in
            try ["batch", "measurement", "emitter_cell"].map { table in
                try sql.row("SELECT COUNT(*) AS n FROM \(table)", [])?.int64("n") ?? -1
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aBatchIsStoredOnceAndReadBackThroughTheFeed(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let revision = try await Self.switchOn(database)
            let readings = [Readings.wifi(scan: 0, rssi: -60), Readings.ble(scan: 0, rssi: -70, at: 1), Readings.wifi(scan: 1, rssi: -50, at: 2)]
            let batch = Readings.batch(readings, revision: revision)
            #expect(try await database.endOfMeasurementFeed() == 0)

            let first = try await database.ingest(batch, at: Self.now)
            #expect(first.receipt == BatchReceipt(batchID: batch.batchID, stored: 3, duplicate: false, discarded: false))
            let again = try await database.ingest(batch, at: Self.now)
            #expect(again.receipt == BatchReceipt(batchID: batch.batchID, stored: 0, duplicate: true, discarded: false))
            #expect(again.lastSequence == nil)

            let slice = try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 10)
            #expect(slice.items.map(\.measurement) == readings)
            #expect(slice.items.allSatisfy { $0.batchID == batch.batchID && $0.switchRevision == revision && $0.mode == .locate })
            #expect(slice.items.map(\.sequence) == slice.items.map(\.sequence).sorted())
            #expect(first.lastSequence == slice.items.last?.sequence)
            #expect(slice.endOfFeed == first.lastSequence)
            #expect(try await database.endOfMeasurementFeed() == first.lastSequence)

            let beacon = try await database.measurements(
                matching: MeasurementFilter(emitter: .beacon(BeaconID(uuid: Readings.beaconUUID, major: 1, minor: 2))), after: 0, limit: 10
            )
            #expect(beacon.items.map(\.measurement) == [readings[1]])
            let wifiAfterFirst = try await database.measurements(
                matching: MeasurementFilter(scannerID: Self.scanner, kind: .wifi), after: try #require(slice.items.first).sequence, limit: 10
            )
            #expect(wifiAfterFirst.items.map(\.measurement) == [readings[2]])
            let limited = try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 2)
            #expect(limited.items.count == 2 && limited.endOfFeed == first.lastSequence)

            let cells = try await database.readStatements { sql in
                try sql.rows("SELECT kind, readings, rssi_sum, max_rssi, last_ssid FROM emitter_cell ORDER BY kind", []).map {
                    "\(try $0.string("kind")) \(try $0.int("readings")) \(try $0.int("rssi_sum")) \(try $0.int("max_rssi")) \(try $0.optionalString("last_ssid") ?? "-")"
                }
            }
            #expect(cells == ["ble 1 -70 -70 -", "wifi 2 -110 -50 floorscan-lab"])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func refusedBatchesStoreNothing(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let off = try await database.currentSwitch(of: Self.scanner).revision
            let revision = try await Self.switchOn(database)
            await #expect(throws: StoreError.notFound("no scanner nowhere")) {
                try await database.ingest(Readings.batch([Readings.wifi()], revision: revision, scanner: try ScannerID("nowhere")), at: Self.now)
            }
            await #expect(throws: StoreError.invalidField(ValidationError(
                field: "switchRevision", reason: "scanner default has no revision 9; its switch is at revision \(revision)"
            ))) {
                try await database.ingest(Readings.batch([Readings.wifi()], revision: 9), at: Self.now)
            }
            await #expect(throws: StoreError.invalidField(ValidationError(
                field: "switchRevision", reason: "revision \(off) of scanner default was not scanning"
            ))) {
                try await database.ingest(Readings.batch([Readings.wifi()], revision: off), at: Self.now)
            }
            #expect(try await Self.storedCounts(database) == [0, 0, 0])
            #expect(try await database.endOfMeasurementFeed() == 0)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aRefusedBatchInAGroupIsRolledBackAloneAndAStopEarlyLeavesTheRestOut(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let revision = try await Self.switchOn(database)
            let good = Readings.batch([Readings.wifi()], revision: revision)
            let bad = Readings.batch([Readings.ble()], revision: 99)
            let later = Readings.batch([Readings.ble(), Readings.wifi(at: 1)], revision: revision)
            let results = try await database.ingest([(good, Self.now, nil), (bad, Self.now, nil), (later, Self.now, nil)])
            #expect(results.count == 3)
            #expect(try results[0].get().receipt.stored == 1)
            #expect(throws: StoreError.self) { try results[1].get() }
            #expect(try results[2].get().receipt.stored == 2)
            #expect(try await Self.storedCounts(database).prefix(2) == [2, 3])

            let stopped = try await database.ingest(
                [(Readings.batch([Readings.wifi()], revision: revision), Self.now, nil), (Readings.batch([Readings.wifi()], revision: revision), Self.now, nil)],
                stopEarly: { true }
            )
            #expect(stopped.count == 1)
            #expect(try await Self.storedCounts(database).prefix(2) == [3, 4])
        }
    }

    /// A batch given with its token's ID is stored only while that token is active, checked in
    /// the group's own transaction: a token revoked since its request was let in stores nothing,
    /// and the group's other batches are kept.
    @Test(arguments: StoreBackend.allCases)
    func aBatchWhoseTokenWasRevokedIsRefusedInsideTheGroup(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let revision = try await Self.switchOn(database)
            let active = try await database.issueToken(NewToken(name: "kept", role: .scanner, scannerID: Self.scanner), hash: Array(repeating: 1, count: 32), at: Self.now)
            let revoked = try await database.issueToken(NewToken(name: "revoked", role: .scanner, scannerID: Self.scanner), hash: Array(repeating: 2, count: 32), at: Self.now)
            _ = try await database.revokeToken(revoked.id, at: Self.now)
            let first = Readings.batch([Readings.wifi()], revision: revision)
            let refused = Readings.batch([Readings.ble()], revision: revision)
            let unchecked = Readings.batch([Readings.ble(), Readings.wifi(at: 1)], revision: revision)
            let results = try await database.ingest([(first, Self.now, active.id), (refused, Self.now, revoked.id), (unchecked, Self.now, nil)])
            #expect(try results[0].get().receipt.stored == 1)
            #expect(throws: StoreError.tokenRevoked(revoked.id)) { try results[1].get() }
            #expect(try results[2].get().receipt.stored == 2)
            #expect(try await Self.storedCounts(database).prefix(2) == [2, 3])
            // An ID no token has is refused the same way.
            let unknown = try await database.ingest([(refused, Self.now, 999)])
            #expect(throws: StoreError.tokenRevoked(999)) { try unknown[0].get() }
            #expect(try await Self.storedCounts(database).prefix(2) == [2, 3])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aSwitchThatKeepsNoReadingsDiscardsTheBatch(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let revision = try await Self.switchOn(database, storeData: false)
            let batch = Readings.batch([Readings.wifi(), Readings.ble()], revision: revision)
            let outcome = try await database.ingest(batch, at: Self.now)
            #expect(outcome.receipt == BatchReceipt(batchID: batch.batchID, stored: 0, duplicate: false, discarded: true))
            #expect(outcome.lastSequence == nil)
            let replay = try await database.ingest(batch, at: Self.now)
            #expect(replay.receipt == BatchReceipt(batchID: batch.batchID, stored: 0, duplicate: true, discarded: true))
            #expect(try await Self.storedCounts(database) == [1, 0, 0])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theBatchCompletingAScanCountTurnsTheSwitchOff(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let revision = try await Self.switchOn(database, stopAfter: .scans(2))
            let first = try await database.ingest(Readings.batch([Readings.wifi(scan: 0)], revision: revision), at: Self.now)
            #expect(first.switchTurnedOff == nil)
            #expect(try await database.currentSwitch(of: Self.scanner).scansCompleted == 1)
            let second = try await database.ingest(Readings.batch([Readings.wifi(scan: 1)], revision: revision), at: Self.now)
            let off = try #require(second.switchTurnedOff)
            #expect(off.revision == revision + 1 && !off.scanning)
            #expect(try await database.currentSwitch(of: Self.scanner) == off)
        }
    }
}

/// Two stores on one PostgreSQL database, as two switchd instances: readings committed through
/// one announce the feed's new end to the other's listener, and a refused batch announces
/// nothing.
@Suite("The measurement feed across instances", postgresInstalled, .postgresServer)
struct PostgresFeedFanOutTests {
    @Test func readingsCommittedThroughOneStoreAnnounceTheFeedsEndToTheOthersListener() async throws {
        let (first, second) = try await twoPostgresInstances()
        let (announced, announce) = AsyncStream.makeStream(of: Int64.self)
        let (registered, register) = AsyncStream.makeStream(of: Void.self)
        let listener = Task {
            try await second.listenForMeasurementFeed(listening: { register.yield() }) { sequence in announce.yield(sequence) }
        }
        var registrations = registered.makeAsyncIterator()
        _ = await registrations.next()

        let revision = try await PostgresIngestStoreTests.switchOn(first)
        await #expect(throws: StoreError.self) {
            try await first.ingest(Readings.batch([Readings.wifi()], revision: 99), at: PostgresIngestStoreTests.now)
        }
        let stored = try await first.ingest(Readings.batch([Readings.wifi(), Readings.ble()], revision: revision), at: PostgresIngestStoreTests.now)
        var announcements = announced.makeAsyncIterator()
        #expect(await announcements.next() == stored.lastSequence, "the refused batch announced nothing, the stored one its last sequence")
        #expect(try await second.endOfMeasurementFeed() == stored.lastSequence)

        listener.cancel()
        _ = await listener.result
        try await first.close()
        try await second.close()
    }
}
