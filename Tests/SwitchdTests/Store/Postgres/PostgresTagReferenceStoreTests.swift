import Foundation
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// "Record this tag here" with the same assertions on SQLite and on a real PostgreSQL server:
/// a recording takes only the tag's windows after it was asked, from placed scanners, each
/// window once, stops at the windows wanted, keeps the tag's power of that moment, survives
/// history retention, and is refused, listed and deleted as documented (docs/tags.md).
@Suite("Tag reference points on both databases", postgresInstalled, .postgresServer)
struct PostgresTagReferenceStoreTests {
    static let asked = Readings.start.addingTimeInterval(10)

    /// Four placed scanners on a floor, an unplaced one, and a tag heard once before.
    static func site(in database: AppDatabase) async throws -> (Floor, ScanContract.Tag) {
        let floor = try await database.createFloor(NewFloor(name: "Ground", level: 0))
        try await TagWorld.placeScanners(in: database, floorID: floor.id)
        _ = try await database.createScanner(NewScanner(id: try ScannerID("unplaced")), at: Readings.start)
        let tag = try await database.createTag(NewTag(name: "Bike", identity: TagWorld.tagIdentity, txPower: -60))
        try await report(in: database, second: 5)
        return (floor, tag)
    }

    /// Scanners `indices` report the tag at (7, 2) for the window ending at `second`.
    static func report(in database: AppDatabase, second: TimeInterval, scanners indices: [Int] = [0, 1, 2, 3]) async throws {
        for index in indices {
            let batch = SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [
                TagWorld.sighting(rssi: TagWorld.rssi(index, tagAt: 7, 2, txPower: -60), at: second),
            ])
            _ = try await database.ingestSightings(batch, reading: .median)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aRecordingTakesTheTagsNextWindowsFromPlacedScannersUntilItHasThem(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, tag) = try await Self.site(in: database)
            let signature = try await database.beaconTableSignature()
            let started = try await database.createTagReference(NewTagReference(floorID: floor.id, x: 7, y: 2, windows: 3), for: tag.id, at: Self.asked)
            #expect(started == TagReference(
                id: started.id, tagID: tag.id, floorID: floor.id, x: 7, y: 2, z: 1, windowsWanted: 3, windowsRecorded: 0, scannersHeard: [],
                state: .recording, createdAt: Self.asked
            ), "z is the tag's height; nothing of the window heard before counts")
            #expect(try await database.beaconTableSignature() != signature, "a new reference is a new map")

            // A spooled window older than the tag's latest one when asked, and the unplaced scanner, do not count.
            let late = SightingBatch(scannerID: TagWorld.scannerID(0), sightings: [TagWorld.sighting(rssi: -70, at: 4)])
            #expect(try await database.ingestSightings(late, reading: .median).beaconsHeard == false)
            let unplaced = SightingBatch(scannerID: try ScannerID("unplaced"), sightings: [TagWorld.sighting(rssi: -70, at: 6)])
            #expect(try await database.ingestSightings(unplaced, reading: .median).beaconsHeard == false)
            #expect(try await database.tagReference(started.id, of: tag.id).windowsRecorded == 0)

            // Two scanners, then the two others, report the same window: it counts once.
            try await Self.report(in: database, second: 6, scanners: [0, 1])
            var now = try await database.tagReference(started.id, of: tag.id)
            #expect(now.windowsRecorded == 1 && now.scannersHeard == ["fixed-0", "fixed-1"] && now.state == .recording)
            try await Self.report(in: database, second: 6, scanners: [2, 3])
            try await Self.report(in: database, second: 7)
            #expect(try await database.tagReference(started.id, of: tag.id).windowsRecorded == 2)
            // A window sent twice (a retried upload) is kept once.
            try await Self.report(in: database, second: 7, scanners: [0])
            try await Self.report(in: database, second: 8)
            now = try await database.tagReference(started.id, of: tag.id)
            #expect(now.windowsRecorded == 3 && now.state == .done && now.scannersHeard == ["fixed-0", "fixed-1", "fixed-2", "fixed-3"])
            try await Self.report(in: database, second: 9)
            #expect(try await database.tagReference(started.id, of: tag.id).windowsRecorded == 3, "a done recording takes no more")

            // The map holds it: one point at the spot, three windows of four scanners' path loss
            // from the tag's power when recorded, which a later edit of the tag does not change.
            _ = try await database.updateTag(tag.id, with: TagPatch(txPower: -50))
            let points = try await database.tagReferencePoints(reading: .median)
            #expect(points.count == 1)
            let point = try #require(points.first)
            #expect(point.floorID == floor.id && point.x == 7 && point.y == 2 && point.height == 1 && point.windows.count == 3)
            for window in point.windows {
                #expect(window.count == 4)
                for index in 0 ..< 4 {
                    let loss = try #require(window[TagWorld.scannerID(index).rawValue])
                    #expect(abs(loss - (-60 - TagWorld.rssi(index, tagAt: 7, 2, txPower: -60))) < 1e-9)
                }
            }

            // History retention prunes the sightings; the recorded point stays.
            _ = try await database.pruneHistory(before: Readings.start.addingTimeInterval(3600))
            #expect(try await database.sightings(of: tag.id, limit: 100).count <= 1)
            #expect(try await database.tagReferencePoints(reading: .median) == points)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aBadRequestIsRefusedWithNothingStoredAndReferencesAreListedAndDeleted(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, tag) = try await Self.site(in: database)
            let refused: [(NewTagReference, ValidationError)] = [
                (NewTagReference(floorID: floor.id, x: .nan, y: 0), ValidationError(field: "x", reason: "must be a finite number of metres within ±100000, got nan")),
                (NewTagReference(floorID: floor.id, x: 0, y: 0, z: 101), ValidationError(field: "z", reason: "must be a finite number of metres within ±100, got 101.0")),
                (NewTagReference(floorID: floor.id, x: 0, y: 0, windows: 0), ValidationError(field: "windows", reason: "must be 1 to 30 windows, got 0")),
                (NewTagReference(floorID: floor.id, x: 0, y: 0, windows: 31), ValidationError(field: "windows", reason: "must be 1 to 30 windows, got 31")),
            ]
            for (new, error) in refused {
                await #expect(throws: StoreError.invalidField(error)) { try await database.createTagReference(new, for: tag.id, at: Self.asked) }
            }
            await #expect(throws: StoreError.notFound("no tag 999")) {
                try await database.createTagReference(NewTagReference(floorID: floor.id, x: 1, y: 1), for: 999, at: Self.asked)
            }
            await #expect(throws: StoreError.notFound("no floor 999")) {
                try await database.createTagReference(NewTagReference(floorID: 999, x: 1, y: 1), for: tag.id, at: Self.asked)
            }
            #expect(try await database.tagReferences(of: tag.id).isEmpty)

            let first = try await database.createTagReference(NewTagReference(floorID: floor.id, x: 1, y: 1, z: 0.5, windows: 1), for: tag.id, at: Self.asked)
            await #expect(throws: StoreError.conflict("tag \(tag.id) is still being recorded at reference \(first.id); wait for it or delete it")) {
                try await database.createTagReference(NewTagReference(floorID: floor.id, x: 2, y: 2), for: tag.id, at: Self.asked)
            }
            try await Self.report(in: database, second: 6)
            let second = try await database.createTagReference(NewTagReference(floorID: floor.id, x: 2, y: 2), for: tag.id, at: Self.asked)
            #expect(try await database.tagReferences(of: tag.id).map(\.id) == [first.id, second.id])
            #expect(try await database.tagReferences(of: tag.id).map(\.state) == [.done, .recording])

            try await database.deleteTagReference(second.id, of: tag.id)
            await #expect(throws: StoreError.notFound("tag \(tag.id) has no reference \(second.id)")) { try await database.deleteTagReference(second.id, of: tag.id) }
            await #expect(throws: StoreError.notFound("tag \(tag.id) has no reference \(second.id)")) { _ = try await database.tagReference(second.id, of: tag.id) }
            await #expect(throws: StoreError.notFound("no tag 999")) { _ = try await database.tagReferences(of: 999) }
            #expect(try await database.tagReferencePoints(reading: .median).count == 1)

            // Deleting the tag deletes what it recorded.
            try await database.deleteTag(tag.id)
            #expect(try await database.tagReferencePoints(reading: .median).isEmpty)
        }
    }
}
