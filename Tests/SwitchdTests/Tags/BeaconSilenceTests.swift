import Foundation
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// A simulated stream of sightings from two fixed scanners hearing two beacons every 10 s: one
/// beacon stops, and `beaconSilent` is raised once, at its last sighting plus the silence, with
/// its beacon, floor and room; nothing while the scanners go on hearing it, nor when the scanners
/// hear nothing at all; once heard again it is re-armed. Time is the sightings' own.
@Suite("Silent beacons")
struct BeaconSilenceTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)
    static let silence = Duration.seconds(300)

    static func sighting(minor: UInt16, at seconds: Double, rssi: Double = -70) -> Sighting {
        let end = start.addingTimeInterval(seconds)
        return Sighting(
            identity: .iBeacon(BeaconID(uuid: Readings.beaconUUID, major: 4, minor: minor)), windowStart: end.addingTimeInterval(-1), windowEnd: end,
            count: 3, medianRSSI: rssi, maxRSSI: Int(rssi) + 2
        )
    }

    /// A floor with a hall outlined around the failing beacon (minor 2), a steady one outside
    /// (minor 1), and two scanners.
    struct Site {
        var database: AppDatabase
        var floor: Floor
        var hall: Room
        var steady: Beacon
        var failing: Beacon
        var scanners: [ScannerID]
        var statistic: TagRSSIStatistic
    }

    static func site() async throws -> Site {
        let database = try AppDatabase.inMemory()
        let floor = try await database.createFloor(NewFloor(name: "Ground", level: 0))
        let hall = try await database.createRoom(NewRoom(floorID: floor.id, name: "Hall"))
        _ = try await database.setRoomOutline(hall.id, to: RoomOutline(outline: [[0, 0], [10, 0], [10, 10], [0, 10]]))
        let steady = try await database.createBeacon(NewBeacon(uuid: Readings.beaconUUID, major: 4, minor: 1, floorID: floor.id, x: 20, y: 20, measuredPower: -59))
        let failing = try await database.createBeacon(NewBeacon(uuid: Readings.beaconUUID, major: 4, minor: 2, floorID: floor.id, x: 5, y: 5, measuredPower: -59))
        let scanners = [try ScannerID("default"), try ScannerID("fixed-2")]
        _ = try await database.createScanner(NewScanner(id: scanners[1]), at: start)
        return Site(
            database: database, floor: floor, hall: hall, steady: steady, failing: failing, scanners: scanners,
            statistic: await TagTracker(database: database).settings.rssiStatistic
        )
    }

    @Test func aBeaconThatStopsIsSilentOnceAndInItsRoom() async throws {
        let site = try await Self.site()
        let (database, floor, hall, steady, failing, scanners, statistic) = (
            site.database, site.floor, site.hall, site.steady, site.failing, site.scanners, site.statistic
        )

        var raised: [(Double, [PresenceEvent])] = []
        // The failing beacon is last heard at 600 s; the steady one all along, to 1200 s.
        for seconds in stride(from: 10.0, through: 1200, by: 10) {
            for scanner in scanners {
                var sightings = [Self.sighting(minor: 1, at: seconds)]
                if seconds <= 600 { sightings.append(Self.sighting(minor: 2, at: seconds)) }
                _ = try await database.ingestSightings(SightingBatch(scannerID: scanner, sightings: sightings), reading: statistic)
            }
            let events = try await database.markSilentBeacons(silence: Self.silence)
            if !events.isEmpty { raised.append((seconds, events)) }
        }
        #expect(raised.map(\.0) == [900], "silent once a scanner that heard it heard others 300 s after its last sighting")
        let event = try #require(raised.first?.1.first)
        #expect(raised.first?.1.count == 1)
        #expect(event.kind == .beaconSilent && event.beaconID == failing.id && event.beaconID != steady.id)
        #expect(event.time == Self.start.addingTimeInterval(900) && event.floor == floor.id && event.roomID == hall.id)
        #expect(event.scannerID == nil && event.tagID == nil)
        #expect(try await database.beacon(failing.id).health == BeaconHealthFlags(silent: true, faded: false))
        #expect(try await database.beacon(steady.id).health == nil)

        // Heard again: re-armed, silent again after another silence.
        _ = try await database.ingestSightings(SightingBatch(scannerID: scanners[0], sightings: [Self.sighting(minor: 2, at: 1210), Self.sighting(minor: 1, at: 1210)]), reading: statistic)
        #expect(try await database.markSilentBeacons(silence: Self.silence).isEmpty)
        _ = try await database.ingestSightings(SightingBatch(scannerID: scanners[1], sightings: [Self.sighting(minor: 1, at: 1510)]), reading: statistic)
        #expect(try await database.markSilentBeacons(silence: Self.silence).map(\.time) == [Self.start.addingTimeInterval(1510)])
        let stored = try await database.presenceEvents(matching: PresenceEventFilter(kind: .beaconSilent), after: 0, limit: 10).items
        #expect(stored.count == 2)
    }

    /// Scanners that hear nothing (a radio down, a switchd cut off) make no beacon silent: that is
    /// the scanners' trouble, reported as theirs (docs/fleet-health.md).
    @Test func scannersHearingNothingMakeNoBeaconSilent() async throws {
        let database = try AppDatabase.inMemory()
        let floor = try await database.createFloor(NewFloor(name: "Ground", level: 0))
        _ = try await database.createBeacon(NewBeacon(uuid: Readings.beaconUUID, major: 4, minor: 2, floorID: floor.id, x: 5, y: 5, measuredPower: -59))
        let statistic = await TagTracker(database: database).settings.rssiStatistic
        _ = try await database.ingestSightings(SightingBatch(scannerID: try ScannerID("default"), sightings: [Self.sighting(minor: 2, at: 10)]), reading: statistic)
        #expect(try await database.markSilentBeacons(silence: Self.silence).isEmpty)
        // Another scanner, which never heard it, hears something much later: still not silent.
        _ = try await database.createScanner(NewScanner(id: try ScannerID("elsewhere")), at: Self.start)
        _ = try await database.createBeacon(NewBeacon(uuid: Readings.beaconUUID, major: 4, minor: 9, floorID: floor.id, x: 50, y: 5, measuredPower: -59))
        _ = try await database.ingestSightings(SightingBatch(scannerID: try ScannerID("elsewhere"), sightings: [Self.sighting(minor: 9, at: 5000)]), reading: statistic)
        #expect(try await database.markSilentBeacons(silence: Self.silence).isEmpty)
    }
}
