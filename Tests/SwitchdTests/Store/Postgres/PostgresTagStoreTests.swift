import Foundation
import HummingbirdTesting
import Logging
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Tags (with lookup), fixed scanners' placements, sightings and the tag positions computed from
/// them, with the same assertions on SQLite and on a real PostgreSQL server (docs/scale-out.md):
/// what each write answers, the same errors for unknown IDs and refused input, a missing tag's
/// event raised once, receive offsets estimated from beacons, the tracker locating a tag heard
/// by four scanners, and the tag position feed's end kept when a tag or floor is deleted.
@Suite("Tags on both databases", postgresInstalled, .postgresServer)
struct PostgresTagStoreTests {
    static let uuid = UUID(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let address = TagIdentity.address(MACAddress(rawValue: 0xAA_BB_CC_00_11_22))

    static func identity(_ major: UInt16, _ minor: UInt16) -> TagIdentity {
        .iBeacon(BeaconID(uuid: uuid, major: major, minor: minor))
    }

    @Test(arguments: StoreBackend.allCases)
    func tagsAreMadeLookedUpPatchedAndDeleted(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            var made: [ScanContract.Tag] = []
            for (major, minor) in [(7, 1), (7, 2), (8, 1)] as [(UInt16, UInt16)] {
                made.append(try await database.createTag(NewTag(name: "\(major).\(minor)", identity: Self.identity(major, minor))))
            }
            let keys = try await database.createTag(NewTag(name: "keys", identity: Self.address, txPower: -65, missing: true, metadata: ["b": "2", "a": "1"]))
            #expect(keys == ScanContract.Tag(id: keys.id, name: "keys", identity: Self.address, txPower: -65, missing: true, metadata: ["a": "1", "b": "2"]))
            await #expect(throws: StoreError.conflict("tag \(made[0].id) is already registered as \(Self.identity(7, 1).key)")) {
                try await database.createTag(NewTag(name: "again", identity: Self.identity(7, 1)))
            }
            await #expect(throws: StoreError.self) { try await database.createTag(NewTag(name: "", identity: Self.identity(9, 9))) }

            #expect(try await database.tags() == made + [keys])
            #expect(try await database.tags(matching: TagLookup(uuid: Self.uuid)) == made)
            #expect(try await database.tags(matching: TagLookup(uuid: Self.uuid, major: 7)) == Array(made.prefix(2)))
            #expect(try await database.tags(matching: TagLookup(uuid: Self.uuid, major: 7, minor: 2)) == [made[1]])
            #expect(try await database.tags(matching: TagLookup(uuid: UUID())).isEmpty)
            #expect(try await database.tags(matching: TagLookup(address: MACAddress(rawValue: 0xAA_BB_CC_00_11_22))) == [keys])
            await #expect(throws: StoreError.invalidField(ValidationError(field: "uuid", reason: "is needed with major or minor"))) {
                try await database.tags(matching: TagLookup(major: 7))
            }
            #expect(try await database.tag(keys.id) == keys)

            let renamed = try await database.updateTag(made[0].id, with: TagPatch(name: "bike", height: 0.5))
            #expect(renamed.name == "bike" && renamed.height == 0.5 && renamed.identity == made[0].identity)
            #expect(try await database.tag(made[0].id) == renamed)
            await #expect(throws: StoreError.conflict("tag \(keys.id) is already registered as \(Self.address.key)")) {
                try await database.updateTag(made[0].id, with: TagPatch(identity: Self.address))
            }
            #expect(try await database.updateTag(made[0].id, with: TagPatch(identity: made[0].identity)) == renamed)

            try await database.deleteTag(made[2].id)
            await #expect(throws: StoreError.notFound("no tag \(made[2].id)")) { try await database.deleteTag(made[2].id) }
            await #expect(throws: StoreError.notFound("no tag 999")) { try await database.tag(999) }
            await #expect(throws: StoreError.notFound("no tag 999")) { try await database.updateTag(999, with: TagPatch(name: "x")) }
            await #expect(throws: StoreError.notFound("no tag 999")) { try await database.checkTagExists(999) }
            #expect(try await database.tags().map(\.id) == [made[0].id, made[1].id, keys.id])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func placementsAreSetKeptListedAndRemoved(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let ground = try await database.createFloor(NewFloor(name: "Ground"))
            let first = try await database.createFloor(NewFloor(name: "First", level: 1))
            for name in ["b", "a"] { _ = try await database.createScanner(NewScanner(id: try ScannerID(name)), at: Readings.start) }
            let b = try await database.placeScanner(try ScannerID("b"), NewScannerPlacement(floorID: ground.id, x: 1, y: 2, receiveOffsetOverride: -3))
            #expect(b == ScannerPlacement(
                scannerID: try ScannerID("b"), floorID: ground.id, x: 1, y: 2, height: NewScannerPlacement.defaultHeight,
                pathLossExponent: NewScannerPlacement.defaultPathLossExponent, receiveOffsetOverride: -3, estimatedReceiveOffset: nil,
                calibrationSamples: 0
            ))
            let a = try await database.placeScanner(try ScannerID("a"), NewScannerPlacement(floorID: first.id, x: 3, y: 4, height: 1, pathLossExponent: 3))
            #expect(try await database.placements() == [a, b])
            #expect(try await database.placements(onFloor: ground.id) == [b])
            #expect(try await database.placement(of: try ScannerID("a")) == a)
            let moved = try await database.placeScanner(try ScannerID("b"), NewScannerPlacement(floorID: first.id, x: 5, y: 6))
            #expect(moved.floorID == first.id && moved.x == 5 && moved.receiveOffsetOverride == nil)

            await #expect(throws: StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor 999"))) {
                try await database.placeScanner(try ScannerID("a"), NewScannerPlacement(floorID: 999, x: 1, y: 2))
            }
            await #expect(throws: StoreError.notFound("no scanner nobody")) {
                try await database.placeScanner(try ScannerID("nobody"), NewScannerPlacement(floorID: ground.id, x: 1, y: 2))
            }
            try await database.unplaceScanner(try ScannerID("a"))
            try await database.unplaceScanner(try ScannerID("a"))   // idempotent
            await #expect(throws: StoreError.notFound("no scanner nobody")) { try await database.unplaceScanner(try ScannerID("nobody")) }
            await #expect(throws: StoreError.notFound("scanner a is not a placed fixed scanner")) { try await database.placement(of: try ScannerID("a")) }
            #expect(try await database.placements() == [moved])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func sightingsAreStoredAMissingTagHeardRaisesOneEventAndBeaconsCalibrate(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let floor = try await database.createFloor(NewFloor(name: "Ground"))
            let scanner = try ScannerID("fixed-0")
            _ = try await database.createScanner(NewScanner(id: scanner), at: Readings.start)
            _ = try await database.placeScanner(scanner, NewScannerPlacement(floorID: floor.id, x: 0, y: 0, height: 2.5))
            let tag = try await database.createTag(NewTag(name: "bike", identity: Self.identity(7, 1), missing: true))
            let beacon = BeaconID(uuid: Self.uuid, major: 1, minor: 1)
            _ = try await database.createBeacon(NewBeacon(uuid: beacon.uuid, major: beacon.major, minor: beacon.minor, floorID: floor.id, x: 3, y: 4, measuredPower: -59))

            func window(_ identity: TagIdentity, at second: TimeInterval, rssi: Double) -> Sighting {
                Sighting(
                    identity: identity, windowStart: Readings.start.addingTimeInterval(second - 1), windowEnd: Readings.start.addingTimeInterval(second),
                    count: 5, medianRSSI: rssi, maxRSSI: Int(rssi) + 2
                )
            }
            let first = try await database.ingestSightings(SightingBatch(scannerID: scanner, sightings: [
                window(tag.identity, at: 1, rssi: -70), window(Self.identity(9, 9), at: 1, rssi: -70), window(tag.identity, at: 2, rssi: -71),
            ]), reading: .median)
            #expect(first.stored == 2 && first.ignored == 1 && !first.beaconsHeard)
            #expect(first.tagsHeard == [tag.id: Readings.start.addingTimeInterval(2)])
            let event = try #require(first.presenceEvents.first)
            #expect(first.presenceEvents.count == 1)
            #expect(event.kind == .missingTagHeard && event.tagID == tag.id && event.scannerID == scanner && event.floor == floor.id)
            let again = try await database.ingestSightings(SightingBatch(scannerID: scanner, sightings: [window(tag.identity, at: 3, rssi: -72)]), reading: .median)
            #expect(again.presenceEvents.isEmpty, "raised once until the tag is marked missing again")
            _ = try await database.updateTag(tag.id, with: TagPatch(missing: false))
            _ = try await database.updateTag(tag.id, with: TagPatch(missing: true))
            let rearmed = try await database.ingestSightings(SightingBatch(scannerID: scanner, sightings: [window(tag.identity, at: 4, rssi: -73)]), reading: .median)
            #expect(rearmed.presenceEvents.count == 1 && rearmed.presenceEvents[0].id > event.id)

            let sightings = try await database.sightings(of: tag.id, limit: 2)
            #expect(sightings.map(\.windowEnd) == [4, 3].map { Readings.start.addingTimeInterval($0) } && sightings[0].medianRSSI == -73)
            #expect(sightings[0].id == rearmed.lastSightingID && sightings[0].maxRSSI == -71 && sightings[0].count == 5)
            await #expect(throws: StoreError.notFound("no tag 999")) { try await database.sightings(of: 999, limit: 2) }
            await #expect(throws: StoreError.notFound("no scanner nobody")) {
                try await database.ingestSightings(SightingBatch(scannerID: try ScannerID("nobody"), sightings: [window(tag.identity, at: 5, rssi: -70)]), reading: .median)
            }

            // The beacon 5 m away heard 6 dB below what its measured power says: the scanner reads low.
            let expected = -59 - 20 * log10((9.0 + 16 + 6.25).squareRoot())
            let heard = try await database.ingestSightings(SightingBatch(scannerID: scanner, sightings: [
                window(.iBeacon(beacon), at: 5, rssi: expected - 6), window(.iBeacon(beacon), at: 6, rssi: expected - 6),
            ]), reading: .median)
            #expect(heard.beaconsHeard && heard.stored == 2 && heard.tagsHeard.isEmpty)
            let calibrated = try await database.placement(of: scanner)
            #expect(calibrated.calibrationSamples == 2)
            #expect(abs(try #require(calibrated.estimatedReceiveOffset) - 6) < 0.01, "add 6 dB to what it reports: \(calibrated)")
            #expect(try await database.readingAboveMedian(.strongest, of: .beacons) > 0)
            #expect(try await database.readingAboveMedian(.median, of: .tag(tag.id, storedUpTo: nil)) == 0)
            let points = try await database.tagReferencePoints(reading: .median)
            #expect(points.count == 1 && points[0].windows.count == 2 && points[0].x == 3 && points[0].floorID == floor.id)
            #expect(abs((points[0].windows[0]["fixed-0"] ?? 0) - (-59 - (expected - 6))) < 1e-9)
            let signature = try await database.beaconTableSignature()
            let beaconRow = try #require(try await database.beacons(onFloor: nil).first)
            // The beacon's sums, then the tag reference points' (none: count, ID sum, windows).
            #expect(signature == BeaconTableSignature(count: 1, totals: [Double(beaconRow.id), Double(floor.id), 3, 4, -59, 0, 0, 0]))
        }
    }

    /// What a listening scanner watches (`GET …/switch?watched=`): every tag, then its
    /// building's beacons, its floor's first and nearest first, a beacon that is a tag left out.
    @Test(arguments: StoreBackend.allCases)
    func aPlacedScannerWatchesTheTagsThenItsBuildingsBeaconsNearestFirst(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let ground = try await database.createFloor(NewFloor(name: "Ground"))
            let upstairs = try await database.createFloor(NewFloor(name: "First", level: 1))
            let annex = try await database.createFloor(NewFloor(building: "annex", name: "Annex"))
            let scanner = try ScannerID("fixed-0")
            _ = try await database.createScanner(NewScanner(id: scanner), at: Readings.start)
            let tag = try await database.createTag(NewTag(name: "bike", identity: Self.identity(1, 4)))
            func beacon(_ minor: UInt16, on floor: Floor, x: Double) async throws -> TagIdentity {
                let made = try await database.createBeacon(NewBeacon(uuid: Self.uuid, major: 1, minor: minor, floorID: floor.id, x: x, y: 0, measuredPower: -59))
                return .iBeacon(BeaconID(uuid: made.uuid, major: made.major, minor: made.minor))
            }
            let far = try await beacon(1, on: ground, x: 9)
            let near = try await beacon(2, on: ground, x: 1)
            let above = try await beacon(3, on: upstairs, x: 0)
            _ = try await beacon(4, on: ground, x: 0)
            _ = try await beacon(5, on: annex, x: 0)

            #expect(try await database.watchedIdentities(of: scanner) == WatchedIdentities(tags: [tag.identity], beacons: []))
            _ = try await database.placeScanner(scanner, NewScannerPlacement(floorID: ground.id, x: 0, y: 0))
            #expect(try await database.watchedIdentities(of: scanner) == WatchedIdentities(tags: [tag.identity], beacons: [near, far, above]))
            #expect(try await database.watchedIdentities(of: try ScannerID("nobody")).all == [tag.identity])
        }
    }

    static let fourCorners = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]

    /// Scanners `fixed-0` … `fixed-3` placed 2.5 m up at the corners of a 10 m square on the floor.
    static func placeFourScanners(onFloor floorID: Int64, in database: AppDatabase) async throws {
        for (index, corner) in fourCorners.enumerated() {
            let scanner = try ScannerID("fixed-\(index)")
            _ = try await database.createScanner(NewScanner(id: scanner), at: Readings.start)
            _ = try await database.placeScanner(scanner, NewScannerPlacement(floorID: floorID, x: corner.0, y: corner.1, height: 2.5))
        }
    }

    /// Each of the four scanners hears `tag` at (x, y), 1.5 m below them, in the window ending a
    /// second after ``Readings/start``, by free-space path loss; returns the last sighting's ID.
    static func fourScannersHear(_ tag: ScanContract.Tag, atX x: Double, y: Double, in database: AppDatabase) async throws -> Int64? {
        var last: Int64?
        for (index, corner) in fourCorners.enumerated() {
            let distance = ((corner.0 - x) * (corner.0 - x) + (corner.1 - y) * (corner.1 - y) + 1.5 * 1.5).squareRoot()
            let rssi = -59 - 20 * log10(distance)
            let sighting = Sighting(
                identity: tag.identity, windowStart: Readings.start, windowEnd: Readings.start.addingTimeInterval(1),
                count: 5, medianRSSI: rssi, maxRSSI: Int(rssi) + 2
            )
            last = try await database.ingestSightings(SightingBatch(scannerID: try ScannerID("fixed-\(index)"), sightings: [sighting]), reading: .strongest).lastSightingID
        }
        return last
    }

    /// Four placed scanners hear the tag; the tracker (switchd's background work behind
    /// `POST /v1/sightings`) reads their hearings, locates it and stores the position, which the
    /// position feed, its end and `latest` then show; deleting the tag and then a floor keeps the
    /// feed's end.
    @Test(arguments: StoreBackend.allCases)
    func theTrackerLocatesATagHeardByFourScannersAndTheFeedsEndIsKept(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let floor = try await database.createFloor(NewFloor(name: "Ground"))
            let room = try await database.createRoom(NewRoom(floorID: floor.id, name: "Hall"))
            _ = try await database.createLocation(NewLocation(roomID: room.id, x: 3, y: 4))
            try await Self.placeFourScanners(onFloor: floor.id, in: database)
            let tag = try await database.createTag(NewTag(name: "bike", identity: Self.identity(7, 1)))
            #expect(try await database.endOfTagPositionFeed() == 0)
            await #expect(throws: StoreError.notFound("tag \(tag.id) has not been located yet")) { try await database.latestTagPosition(of: tag.id) }

            let last = try await Self.fourScannersHear(tag, atX: 3, y: 4, in: database)
            let (read, hearings, _) = try await database.hearings(
                of: tag.id, from: Readings.start, until: Readings.start.addingTimeInterval(1), storedUpTo: last, reading: .median
            )
            #expect(read == tag && hearings.map(\.scanner) == (0 ..< 4).map { "fixed-\($0)" } && hearings.allSatisfy { $0.receiveOffset == 0 })

            let tracker = TagTracker(database: database)
            let position = try #require(try await tracker.locate(tag.id, at: Readings.start.addingTimeInterval(1), storedUpTo: last))
            #expect(position.tagID == tag.id && position.floorID == floor.id && position.scannersHeard == 4 && position.roomID == room.id)
            #expect(abs(position.x - 3) < 0.5 && abs(position.y - 4) < 0.5, "\(position)")
            #expect(try await database.latestTagPosition(of: tag.id) == position)
            let page = try await database.tagPositions(of: tag.id, since: Readings.start, until: nil, after: 0, limit: 10)
            #expect(page.items == [position] && page.endOfFeed == position.id)
            #expect(try await database.tagPositions(of: tag.id, since: nil, until: Readings.start, after: 0, limit: 10).items.isEmpty)
            #expect(try await database.endOfTagPositionFeed() == position.id)
            #expect(try await database.room(nearestTo: 9, 9, onFloor: floor.id) == room.id)

            try await database.deleteTag(tag.id)
            #expect(try await database.endOfTagPositionFeed() == position.id, "a reader is never told a lower end")
            await #expect(throws: StoreError.notFound("no tag \(tag.id)")) { try await database.latestTagPosition(of: tag.id) }
            let other = try await database.createTag(NewTag(name: "keys", identity: Self.address))
            let stored = try await database.storeTagPosition(TagPosition(
                id: 0, tagID: other.id, time: Readings.start, floorID: floor.id, x: 1, y: 1, roomID: nil, accuracyMetres: 2, method: "test", scannersHeard: 1
            ))
            #expect(stored.id > position.id)
            #expect(try await database.endOfTagPositionFeed() == stored.id)
            await #expect(throws: StoreError.notFound("no floor 999")) {
                try await database.storeTagPosition(TagPosition(
                    id: 0, tagID: other.id, time: Readings.start, floorID: 999, x: 1, y: 1, roomID: nil, accuracyMetres: 2, method: "test", scannersHeard: 1
                ))
            }
            _ = try await database.deleteFloor(floor.id, at: Readings.start)
            #expect(try await database.endOfTagPositionFeed() == stored.id)
            #expect(try await database.tagPositions(of: other.id, since: nil, until: nil, after: 0, limit: 10).items.isEmpty)
        }
    }

    /// The routes over HTTP on either database (PostgreSQL's route gate in front): four scanners
    /// placed and posting, the tag located once per window when a later window closes it, its
    /// positions, latest position and sightings read back, and a listening scanner's switch
    /// carrying the watched tag.
    @Test(arguments: StoreBackend.allCases)
    func throughTheRoutesATagIsLocatedOncePerWindowAndWatched(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            try await makeApp(database, clock: WatchedClock()).test(.router) { client in
                let world = try await PositioningWorld.make(client)
                try await TagWorld.placeScanners(client, floorID: world.ground.id)
                let tag = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
                let watched = try await client.expect(.ok, get: "/v1/scanners/\(TagWorld.scannerID(0))/switch?watched=\(WatchedTags.digest(of: []))", as: ScanSwitch.self)
                #expect(watched.watchedTags == [TagWorld.tagIdentity])

                let first = try await TagWorld.report(client, tagAt: 3, 4, at: 1)
                #expect(first.stored == 4 && first.ignored == 0 && first.positions.isEmpty)
                let closed = try await TagWorld.closeWindow(client, after: 1)
                let position = try #require(closed.first)
                #expect(closed.count == 1 && position.tagID == tag.id && position.scannersHeard == 4 && position.roomID == world.rooms[0].id)
                #expect(abs(position.x - 3) < 0.5 && abs(position.y - 4) < 0.5, "\(position)")
                #expect(try await client.expect(.ok, get: "/v1/tags/\(tag.id)/positions/latest", as: TagPosition.self) == position)
                let page = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/positions", as: Page<TagPosition>.self)
                #expect(page.items == [position])
                let sightings = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/sightings?limit=2", as: [StoredSighting].self)
                #expect(sightings.map(\.scannerID) == [TagWorld.scannerID(0), TagWorld.scannerID(3)], "newest first")
                #expect(try await client.expect(.ok, get: "/v1/placements?floor=\(world.ground.id)", as: [ScannerPlacement].self).count == 4)
                #expect(try await client.execute(uri: "/v1/tags/\(tag.id)", method: .delete).status == .noContent)
                #expect(try await client.get("/v1/tags/\(tag.id)/positions").status == .notFound)
            }
        }
    }
}
