import Foundation
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// A simulated stream of sightings from two placed scanners every 10 s, their times the
/// sightings' own: a beacon moves near the second scanner, which had heard only another beacon
/// for longer than the gap, and `beaconNewScanner` is raised once, at that first sighting, with
/// the scanner, the beacon, its floor and room; a scanner's first hearings when it starts, a short
/// gap, and an unplaced scanner raise nothing; a gap as long as `--beacon-new-after` raises it
/// again. On SQLite and on a real PostgreSQL server.
@Suite("Beacons heard by a new scanner", postgresInstalled, .postgresServer, .timeLimit(.minutes(1)))
struct BeaconNewScannerTests {
    static let gap = Duration.seconds(600)

    @Test(arguments: StoreBackend.allCases)
    func aBeaconHeardByAScannerThatHadNotHeardItRaisesOneEvent(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let floor = try await database.createFloor(NewFloor(name: "Ground", level: 0))
            let hall = try await database.createRoom(NewRoom(floorID: floor.id, name: "Hall"))
            _ = try await database.setRoomOutline(hall.id, to: RoomOutline(outline: [[0, 0], [10, 0], [10, 10], [0, 10]]))
            let moved = try await database.createBeacon(NewBeacon(uuid: Readings.beaconUUID, major: 4, minor: 2, floorID: floor.id, x: 5, y: 5, measuredPower: -59))
            _ = try await database.createBeacon(NewBeacon(uuid: Readings.beaconUUID, major: 4, minor: 1, floorID: floor.id, x: 20, y: 20, measuredPower: -59))
            let (first, second, loose) = (ScannerID.default, try ScannerID("fixed-2"), try ScannerID("unplaced"))
            for scanner in [second, loose] { _ = try await database.createScanner(NewScanner(id: scanner), at: BeaconSilenceTests.start) }
            for (index, scanner) in [first, second].enumerated() {
                _ = try await database.placeScanner(scanner, NewScannerPlacement(floorID: floor.id, x: Double(index) * 10, y: 0, height: 2.5))
            }
            let statistic = await TagTracker(database: database).settings.rssiStatistic
            func hear(_ scanner: ScannerID, _ minors: [UInt16], at seconds: Double) async throws {
                let sightings = minors.map { BeaconSilenceTests.sighting(minor: $0, at: seconds) }
                _ = try await database.ingestSightings(SightingBatch(scannerID: scanner, sightings: sightings), reading: statistic)
            }

            var raised: [(Double, [PresenceEvent])] = []
            // The first scanner hears the moved beacon all along; the second, the other beacon
            // all along and the moved one from 900 s; the unplaced one, the other, then the moved.
            for seconds in stride(from: 10.0, through: 1200, by: 10) {
                try await hear(first, [2], at: seconds)
                try await hear(second, seconds >= 900 ? [1, 2] : [1], at: seconds)
                try await hear(loose, seconds >= 900 ? [1, 2] : [1], at: seconds)
                let events = try await database.markNewBeaconScanners(after: Self.gap)
                if !events.isEmpty { raised.append((seconds, events)) }
            }
            #expect(raised.map(\.0) == [900], "once, when the second scanner first heard the moved beacon")
            let event = try #require(raised.first?.1.first)
            #expect(raised.first?.1.count == 1)
            #expect(event.kind == .beaconNewScanner && event.beaconID == moved.id && event.scannerID == second)
            #expect(event.time == BeaconSilenceTests.start.addingTimeInterval(900) && event.floor == floor.id && event.roomID == hall.id)
            #expect(event.tagID == nil)

            // A gap shorter than the threshold is no news; one as long is (the other beacon is
            // heard every 300 s, no gap of its own).
            try await hear(second, [1], at: 1500)
            try await hear(second, [1, 2], at: 1700)
            #expect(try await database.markNewBeaconScanners(after: Self.gap).isEmpty, "heard 500 s before")
            try await hear(second, [1], at: 2000)
            try await hear(second, [1], at: 2300)
            try await hear(second, [1, 2], at: 2310)
            let again = try await database.markNewBeaconScanners(after: Self.gap)
            #expect(again.map(\.time) == [BeaconSilenceTests.start.addingTimeInterval(2310)])
            #expect(try await database.markNewBeaconScanners(after: Self.gap).isEmpty, "nothing new since")
            let stored = try await database.presenceEvents(matching: PresenceEventFilter(kind: .beaconNewScanner), after: 0, limit: 10).items
            #expect(stored.count == 2)
        }
    }
}
