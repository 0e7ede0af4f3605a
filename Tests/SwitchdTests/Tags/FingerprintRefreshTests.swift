import Foundation
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Listening scanners report their building's beacons every window: the tag tracker's
/// fingerprint map takes their new windows at most once a refresh interval of sighting time, not
/// on every batch, while a beacon or placement changed by an admin is used at once.
@Suite struct FingerprintRefreshTests {
    @Test func newBeaconWindowsRebuildTheMapOncePerRefreshAndAdminChangesAtOnce() async throws {
        let database = try AppDatabase.inMemory()
        let floor = try await database.createFloor(NewFloor(name: "Ground", level: 0))
        for (index, corner) in TagWorld.corners.enumerated() {
            _ = try await database.createScanner(NewScanner(id: TagWorld.scannerID(index)), at: Date())
            _ = try await database.placeScanner(TagWorld.scannerID(index), NewScannerPlacement(floorID: floor.id, x: corner.0, y: corner.1, height: 2.5))
        }
        let beacon = try await database.createBeacon(NewBeacon(
            uuid: Readings.beaconUUID, major: 9, minor: 1, floorID: floor.id, x: 3, y: 3, z: 1, measuredPower: -59
        ))
        let tag = try await database.createTag(NewTag(name: "Bike", identity: TagWorld.tagIdentity))
        let tracker = TagTracker(database: database)
        /// Every scanner reports the beacon and the tag for the window ending at `second`, as
        /// SightingsController hands them on; the tag is then located.
        func window(_ second: TimeInterval) async throws {
            for index in TagWorld.corners.indices {
                let ingest = try await database.ingestSightings(SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [
                    TagWorld.sighting(.iBeacon(beacon.beaconID), rssi: TagWorld.rssi(index, tagAt: 3, 3) + Double(index), at: second),
                    TagWorld.sighting(rssi: TagWorld.rssi(index, tagAt: 5, 5), at: second),
                ]), reading: tracker.settings.rssiStatistic)
                if ingest.beaconsHeard { await tracker.beaconsHeard() }
                _ = try await tracker.locate(tag.id, at: Readings.start.addingTimeInterval(second))
            }
        }
        let refresh = TagTracker.Settings().fingerprintRefresh
        for second in 1...Int(refresh) {
            try await window(TimeInterval(second))
        }
        #expect(await tracker.fingerprintBuilds == 1, "60 windows of 4 scanners, each re-estimating its offset: one build")
        try await window(1 + refresh)
        #expect(await tracker.fingerprintBuilds == 2, "a refresh of sighting time later, the new windows are taken")

        _ = try await database.createBeacon(NewBeacon(uuid: Readings.beaconUUID, major: 9, minor: 2, floorID: floor.id, x: 7, y: 7, z: 1, measuredPower: -59))
        try await window(2 + refresh)
        #expect(await tracker.fingerprintBuilds == 3, "a new beacon is used at once")
        _ = try await database.placeScanner(TagWorld.scannerID(0), NewScannerPlacement(floorID: floor.id, x: 0, y: 0, height: 2.5, receiveOffsetOverride: 3))
        _ = try await tracker.locate(tag.id, at: Readings.start.addingTimeInterval(2 + refresh))
        #expect(await tracker.fingerprintBuilds == 4, "an admin's override is used at once")
    }
}
