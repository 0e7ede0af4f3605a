import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// A placed scanner that listens watches the registered beacons of its building besides the
/// tags, so its sightings of them calibrate its receive offset; the list follows beacon and
/// placement changes through the long-poll and never makes the switch answer too long.
@Suite struct WatchedBeaconsTests {
    static func beacon(_ minor: UInt16, on floor: Floor, x: Double, y: Double = 0) -> NewBeacon {
        NewBeacon(uuid: Readings.beaconUUID, major: 3, minor: minor, floorID: floor.id, x: x, y: y, z: 1, measuredPower: -59)
    }

    static func identity(_ minor: UInt16) -> TagIdentity {
        .iBeacon(BeaconID(uuid: Readings.beaconUUID, major: 3, minor: minor))
    }

    @Test func aPlacedScannerWatchesItsBuildingsBeaconsNearestFirstAfterTheTags() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let watched = "/v1/scanners/default/switch?watched=\(WatchedTags.digest(of: []))"
            _ = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            for (minor, floor, x) in [(1, world.ground, 9.0), (2, world.ground, 2.0), (3, world.first, 1.0), (4, world.annex, 1.0)] {
                _ = try await client.expect(.created, .post, "/v1/beacons", json: Self.beacon(UInt16(minor), on: floor, x: x), as: Beacon.self)
            }
            // A beacon that is a tag too is watched once, as the tag.
            let both = TagWorld.tagBeacon
            _ = try await client.expect(
                .created, .post, "/v1/beacons",
                json: NewBeacon(uuid: both.uuid, major: both.major, minor: both.minor, floorID: world.ground.id, x: 5, y: 0, measuredPower: -59), as: Beacon.self
            )
            let roaming = try await client.expect(.ok, get: watched, as: ScanSwitch.self)
            #expect(roaming.watchedTags == [TagWorld.tagIdentity], "a scanner not placed calibrates nothing: tags only")

            _ = try await client.expect(
                .ok, .put, "/v1/scanners/default/placement", json: NewScannerPlacement(floorID: world.ground.id, x: 0, y: 0, height: 1), as: ScannerPlacement.self
            )
            let placed = try await client.expect(.ok, get: watched, as: ScanSwitch.self)
            // Its floor's beacons nearest first, then the other floor of its building; not the annex.
            #expect(placed.watchedTags == [TagWorld.tagIdentity, Self.identity(2), Self.identity(1), Self.identity(3)])
            #expect(placed.watchedLeftOut == nil)
        }
    }

    /// The long-poll of a placed scanner is answered, at the same revision, when a beacon of its
    /// building is added, moved out of it or back, or deleted, and when the scanner is unplaced.
    @Test func longPollAnswersWhenBeaconsOrThePlacementChange() async throws {
        let clock = WatchedClock()
        try await makeApp(try .inMemory(), clock: clock).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            _ = try await client.expect(
                .ok, .put, "/v1/scanners/default/placement", json: NewScannerPlacement(floorID: world.ground.id, x: 0, y: 0, height: 1), as: ScannerPlacement.self
            )
            var held: [TagIdentity] = []
            var beaconID: Int64 = 0
            let steps: [(String, [TagIdentity])] = [
                ("added", [Self.identity(1)]), ("moved to the annex", []), ("moved back", [Self.identity(1)]), ("deleted", []),
            ]
            for (step, expected) in steps {
                let digest = WatchedTags.digest(of: held)
                async let polled = client.expect(.ok, get: "/v1/scanners/default/switch?revision=1&wait=20&watched=\(digest)", as: ScanSwitch.self)
                await clock.sleepers(SwitchTests.longPollSleeping)
                switch step {
                case "added":
                    beaconID = try await client.expect(.created, .post, "/v1/beacons", json: Self.beacon(1, on: world.ground, x: 3), as: Beacon.self).id
                case "moved to the annex":
                    _ = try await client.expect(.ok, .put, "/v1/beacons/\(beaconID)", json: Self.beacon(1, on: world.annex, x: 3), as: Beacon.self)
                case "moved back":
                    _ = try await client.expect(.ok, .put, "/v1/beacons/\(beaconID)", json: Self.beacon(1, on: world.first, x: 3), as: Beacon.self)
                default:
                    #expect(try await client.execute(uri: "/v1/beacons/\(beaconID)", method: .delete).status == .noContent)
                }
                // The clock never moves: the waiting request was woken, not timed out.
                let answer = try await polled
                #expect(answer.revision == 1 && answer.watchedTags == expected, "beacon \(step)")
                held = answer.watchedTags ?? []
            }

            _ = try await client.expect(.created, .post, "/v1/beacons", json: Self.beacon(2, on: world.ground, x: 3), as: Beacon.self)
            held = [Self.identity(2)]
            #expect(try await client.expect(.ok, get: "/v1/scanners/default/switch?watched=\(WatchedTags.digest(of: held))", as: ScanSwitch.self).watchedTags == held)
            let digest = WatchedTags.digest(of: held)
            async let polled = client.expect(.ok, get: "/v1/scanners/default/switch?revision=1&wait=20&watched=\(digest)", as: ScanSwitch.self)
            await clock.sleepers(SwitchTests.longPollSleeping)
            #expect(try await client.execute(uri: "/v1/scanners/default/placement", method: .delete).status == .noContent)
            #expect(try await polled.watchedTags == [], "unplaced, it watches no beacon")
        }
    }

    /// 800 beacons and a tag do not fit in 64 KiB: the answer a scanner reads stays within it,
    /// keeps the tag and the nearest beacons, says how many it left off, and switchd logs one
    /// error for it (not one per long-poll).
    @Test func aListTooLongForTheAnswerLeavesTheFarthestBeaconsOffAndIsLoggedOnce() async throws {
        let database = try AppDatabase.inMemory()
        let floor = try await database.createFloor(NewFloor(name: "Ground", level: 0))
        _ = try await database.createTag(NewTag(name: "Bike", identity: TagWorld.tagIdentity))
        let count = 800
        for minor in 1...count {
            _ = try await database.createBeacon(Self.beacon(UInt16(minor), on: floor, x: Double(count - minor), y: 1))
        }
        _ = try await database.placeScanner(.default, NewScannerPlacement(floorID: floor.id, x: 0, y: 0, height: 1))
        let token = try await issueToken(database, .scanner, scannerID: .default)
        let lines = TokenLoggingTests.LogLines()
        let logger = Logger(label: "switchd-tests") { _ in TokenLoggingTests.CollectingHandler(sink: lines) }
        try await makeUnauthenticatedApp(database, logger: logger).test(.router) { client in
            let uri = "/v1/scanners/default/switch?watched=\(WatchedTags.digest(of: []))"
            let response = try await client.get(uri, headers: bearer(token))
            #expect(response.status == .ok)
            #expect(response.body.readableBytes <= ScanSwitch.answerLimit)
            let answer = try JSONCoding.decoder().decode(ScanSwitch.self, from: Data(buffer: response.body))
            let kept = answer.watchedTags ?? []
            let leftOut = try #require(answer.watchedLeftOut)
            #expect(kept.count + leftOut == count + 1 && kept.count > 500)
            // The tag first, then the beacons from the nearest (the highest minor stands at x = 0).
            #expect(kept.first == TagWorld.tagIdentity)
            #expect(Array(kept.dropFirst()) == (0..<(kept.count - 1)).map { Self.identity(UInt16(count - $0)) })
            print("watched list: \(kept.count) of \(count + 1) identities in \(response.body.readableBytes) bytes, \(leftOut) left off")

            let again = try decoded(ScanSwitch.self, try await client.get(uri, headers: bearer(token)))
            #expect(again.watchedLeftOut == leftOut)
            let errors = lines.all.filter { $0.hasPrefix("error Watched list too long") }
            #expect(errors.count == 1, "logged once while the number left off stays: \(errors)")
            #expect(errors.first?.contains("\"leftOut\": \(leftOut)") == true, "\(errors)")
        }
    }

    /// Beacon sightings calibrate but locate nothing; an identity registered as a beacon and as
    /// a tag is stored and located as the tag.
    @Test func aBeaconIsLocatedOnlyWhenItIsATagToo() async throws {
        // A clock that never moves: the window is closed by the later post, never on a timer,
        // however long this machine takes between the posts.
        try await makeApp(try .inMemory(), clock: WatchedClock()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            let both = TagWorld.tagBeacon
            _ = try await client.expect(
                .created, .post, "/v1/beacons",
                json: NewBeacon(uuid: both.uuid, major: both.major, minor: both.minor, floorID: world.ground.id, x: 5, y: 5, z: 1, measuredPower: -59),
                as: Beacon.self
            )
            // Every scanner reports a window; a later window closes it (switchd locates once a window).
            let asBeacon = try await TagWorld.report(client, tagAt: 5, 5, at: 1)
            let closedAsBeacon = try await TagWorld.closeWindow(client, after: 1)
            #expect(asBeacon.stored == TagWorld.corners.count && asBeacon.positions.isEmpty && closedAsBeacon.isEmpty, "a beacon is not a tag: \(asBeacon) \(closedAsBeacon)")
            _ = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
            let asTag = try await TagWorld.report(client, tagAt: 5, 5, at: 30)
            let closedAsTag = try await TagWorld.closeWindow(client, after: 30)
            #expect(asTag.stored == TagWorld.corners.count && closedAsTag.count == 1, "\(asTag) \(closedAsTag)")
        }
    }
}
