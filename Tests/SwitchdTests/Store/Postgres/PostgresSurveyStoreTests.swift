import Foundation
import Positioning
import ScanContract
import Testing
@testable import SwitchdStore

/// The survey (floors with their plan, geo-reference and export, rooms, locations, links and
/// autolink, beacons) and routes over it, with the same assertions on SQLite and on a real
/// PostgreSQL server (docs/scale-out.md): what each write answers, the same errors for unknown
/// IDs and refused input with nothing stored, orderings, geo-referenced coordinates, and what
/// deletions do besides deleting (switches turned off, the measurement feed's end kept).
@Suite("The survey on both databases", postgresInstalled, .postgresServer)
struct PostgresSurveyStoreTests {
    static let now = Date(milliseconds: 1_790_000_100_000)

    @Test(arguments: StoreBackend.allCases)
    func floorsAreMadeListedInBuildingAndLevelOrderPatchedAndRefusedWhenUnknown(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let ground = try await database.createFloor(NewFloor(name: "Ground"))
            #expect(ground == Floor(id: ground.id, building: "main", name: "Ground", level: 0))
            let annexUpper = try await database.createFloor(NewFloor(building: "annex", name: "Upper", level: 1))
            let annexLower = try await database.createFloor(NewFloor(building: "annex", name: "Lower", level: -1))
            #expect(try await database.floors().map(\.id) == [annexLower.id, annexUpper.id, ground.id])
            #expect(try await database.floor(annexUpper.id) == annexUpper)

            let scale = PlanScale(metresPerPixel: 0.05, originX: 10, originY: 20)
            let patched = try await database.updateFloor(ground.id, with: FloorPatch(name: "Lobby", level: 2, scale: .set(scale)))
            #expect(patched == Floor(id: ground.id, building: "main", name: "Lobby", level: 2, scale: scale))
            #expect(try await database.floor(ground.id) == patched)
            let unscaled = try await database.updateFloor(ground.id, with: FloorPatch(scale: .set(nil)))
            #expect(unscaled.scale == nil && unscaled.name == "Lobby" && unscaled.plan == nil)

            // A plan is stored as bytes and replaced whole.
            await #expect(throws: StoreError.notFound("floor \(ground.id) has no plan")) { try await database.plan(ofFloor: ground.id) }
            let image = Data((0 ..< 600).map { UInt8($0 % 251) })
            let planned = try await database.setPlan(ofFloor: ground.id, format: .png, image: image, at: Self.now)
            #expect(planned.plan == FloorPlanInfo(contentType: PlanImageFormat.png.mediaType, bytes: 600))
            _ = try await database.setPlan(ofFloor: ground.id, format: .svg, image: Data("<svg/>".utf8), at: Self.now)
            let stored = try await database.plan(ofFloor: ground.id)
            #expect(stored.format == .svg && stored.image == Data("<svg/>".utf8) && stored.updated == Self.now)
            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.setPlan(ofFloor: 999, format: .png, image: image, at: Self.now) }
            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.plan(ofFloor: 999) }

            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.floor(999) }
            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.updateFloor(999, with: FloorPatch(name: "X")) }
            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.deleteFloor(999, at: Self.now) }
            await #expect(throws: StoreError.self) { try await database.createFloor(NewFloor(name: "")) }
            #expect(try await database.floors().count == 3)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func roomsBelongToAFloorAreRenamedFoundByNameAndRefusedWhenUnknown(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let floor = try await database.createFloor(NewFloor(name: "Ground"))
            let other = try await database.createFloor(NewFloor(name: "First", level: 1))
            let kitchen = try await database.createRoom(NewRoom(floorID: floor.id, name: "Kitchen"))
            #expect(kitchen == Room(id: kitchen.id, floorID: floor.id, name: "Kitchen"))
            let office = try await database.createRoom(NewRoom(floorID: other.id, name: "Back kitchen office"))
            #expect(try await database.rooms(onFloor: nil) == [kitchen, office])
            #expect(try await database.rooms(onFloor: other.id) == [office])
            #expect(try await database.rooms(named: "KITCH", onFloor: nil) == [kitchen, office])

            let renamed = try await database.updateRoom(kitchen.id, with: RoomPatch(name: "Galley"))
            #expect(renamed.name == "Galley")
            #expect(try await database.room(kitchen.id) == renamed)

            await #expect(throws: StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor 999"))) {
                try await database.createRoom(NewRoom(floorID: 999, name: "Nowhere"))
            }
            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.rooms(onFloor: 999) }
            await #expect(throws: StoreError.notFound("no room 999")) { try await database.room(999) }
            await #expect(throws: StoreError.notFound("no room 999")) { try await database.updateRoom(999, with: RoomPatch(name: "X")) }
            await #expect(throws: StoreError.notFound("no room 999")) { try await database.clearRoom(999) }
            await #expect(throws: StoreError.notFound("no room 999")) { try await database.deleteRoom(999, at: Self.now) }
            #expect(try await database.rooms(onFloor: nil).count == 2)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func locationsAreNamedPlacedMovedWithinTheirFloorAndPlacedOnEarthByTheGeoreference(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, upstairs) = try await Self.twoFloors(in: database)
            let (hall, porch, landing) = try await Self.threeRooms(on: floor, upstairs, in: database)

            let spot = try await database.createLocation(NewLocation(roomID: hall.id, x: 2.5, y: 3))
            #expect(spot == Location(id: spot.id, roomID: hall.id, floorID: floor.id, name: "2.5,3", x: 2.5, y: 3))
            let door = try await database.createLocation(NewLocation(roomID: porch.id, name: "Door", x: 8, y: 1))
            #expect(try await database.location(spot.id) == spot)
            #expect(try await database.locations(inRoom: nil, onFloor: floor.id) == [spot, door])
            #expect(try await database.locations(inRoom: porch.id, onFloor: nil) == [door])

            let moved = try await database.updateLocation(spot.id, with: LocationPatch(roomID: porch.id, name: "Bench", x: 4))
            #expect(moved == Location(id: spot.id, roomID: porch.id, floorID: floor.id, name: "Bench", x: 4, y: 3))
            #expect(try await database.location(spot.id) == moved)
            await #expect(throws: StoreError.invalidField(ValidationError(
                field: "roomID", reason: "room \(landing.id) is on floor \(upstairs.id); a location moves within its floor \(floor.id)"
            ))) {
                try await database.updateLocation(spot.id, with: LocationPatch(roomID: landing.id))
            }
            await #expect(throws: StoreError.invalidField(ValidationError(field: "roomID", reason: "no room 999"))) {
                try await database.createLocation(NewLocation(roomID: 999, x: 0, y: 0))
            }
            await #expect(throws: StoreError.notFound("no location 999")) { try await database.location(999) }
            await #expect(throws: StoreError.notFound("no location 999")) { try await database.updateLocation(999, with: LocationPatch(name: "X")) }
            await #expect(throws: StoreError.notFound("no room 999")) { try await database.locations(inRoom: 999, onFloor: nil) }
            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.locations(inRoom: nil, onFloor: 999) }
            #expect(try await database.location(spot.id) == moved)

            // A geo-referenced floor gives every location on it a latitude and longitude.
            #expect(try await database.georeference(ofFloor: floor.id) == nil)
            let fitted = try await database.setGeoreference(ofFloor: floor.id, Self.controlPoints)
            #expect(try await database.georeference(ofFloor: floor.id) == fitted)
            #expect(fitted.controlPoints.count == 3)
            let placed = try await database.location(door.id)
            #expect(placed.latitude != nil && placed.longitude != nil)
            #expect(try await database.locations(inRoom: porch.id, onFloor: nil).last == placed)
            let coordinates = try #require(try await database.coordinates(floorID: floor.id, x: door.x, y: door.y))
            #expect(coordinates.latitude == placed.latitude && coordinates.longitude == placed.longitude)
            let export = try await database.floorExport(floor.id)
            #expect(export.floor.id == floor.id && export.rooms == [hall, porch] && export.locations.map(\.id) == [spot.id, door.id])
            #expect(export.locations.allSatisfy { $0.latitude != nil })
            await #expect(throws: StoreError.conflict("floor \(upstairs.id) is not geo-referenced: PUT /v1/floors/\(upstairs.id)/georeference first")) {
                try await database.floorExport(upstairs.id)
            }
            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.setGeoreference(ofFloor: 999, Self.controlPoints) }
            try await database.deleteGeoreference(ofFloor: floor.id)
            try await database.deleteGeoreference(ofFloor: floor.id)   // idempotent
            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.deleteGeoreference(ofFloor: 999) }
            #expect(try await database.location(door.id).latitude == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func linksJoinTwoLocationsOnceAndRoutesAndDoorsFollowThem(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let (floor, upstairs) = try await Self.twoFloors(in: database)
            let (hall, porch, landing) = try await Self.threeRooms(on: floor, upstairs, in: database)
            let a = try await database.createLocation(NewLocation(roomID: hall.id, x: 0, y: 0))
            let b = try await database.createLocation(NewLocation(roomID: porch.id, x: 3, y: 4))
            let c = try await database.createLocation(NewLocation(roomID: landing.id, x: 3, y: 4))

            let walk = try await database.createLink(NewLink(from: a.id, to: b.id, kind: .walk))
            #expect(walk == Link(id: walk.id, from: a.id, to: b.id, kind: .walk, distanceMetres: 5))
            let stairs = try await database.createLink(NewLink(from: c.id, to: b.id, kind: .stairs))
            #expect(stairs.distanceMetres == NewLink.storeyHeightMetres)
            #expect(try await database.link(walk.id) == walk)
            #expect(try await database.links(touching: nil) == [walk, stairs])
            #expect(try await database.links(touching: a.id) == [walk])
            #expect(try await database.doors(ofRoom: hall.id) == [
                RoomDoor(locationID: a.id, otherLocationID: b.id, otherRoomID: porch.id, otherFloorID: floor.id, link: walk),
            ])

            await #expect(throws: StoreError.conflict("locations \(b.id) and \(a.id) are already joined by link \(walk.id)")) {
                try await database.createLink(NewLink(from: b.id, to: a.id, kind: .walk, distanceMetres: 2))
            }
            await #expect(throws: StoreError.invalidField(ValidationError(
                field: "kind", reason: "locations \(a.id) and \(c.id) are on different floors: use stairs or lift"
            ))) {
                try await database.createLink(NewLink(from: a.id, to: c.id, kind: .walk))
            }
            await #expect(throws: StoreError.invalidField(ValidationError(field: "to", reason: "no location 999"))) {
                try await database.createLink(NewLink(from: a.id, to: 999, kind: .walk))
            }
            await #expect(throws: StoreError.notFound("no location 999")) { try await database.links(touching: 999) }
            await #expect(throws: StoreError.notFound("no link 999")) { try await database.link(999) }
            await #expect(throws: StoreError.notFound("no room 999")) { try await database.doors(ofRoom: 999) }
            #expect(try await database.links(touching: nil) == [walk, stairs])

            // Routes walk the same links on both databases.
            let route = try await database.walkRoute(from: a.id, to: c.id)
            #expect(route.path.path == [a.id, b.id, c.id] && route.path.distanceMetres == 5 + NewLink.storeyHeightMetres)
            #expect(route.path.floorChanges == 1 && !route.steps.isEmpty)
            let isolated = try await database.createLocation(NewLocation(roomID: hall.id, x: 9, y: 9))
            await #expect(throws: RouteError.unknownLocation(999)) { try await database.walkRoute(from: a.id, to: 999) }
            await #expect(throws: RouteError.self) { try await database.walkRoute(from: a.id, to: isolated.id) }

            // Autolink joins the hall's locations close enough and not behind a wall, once.
            let near = try await database.createLocation(NewLocation(roomID: hall.id, x: 0, y: 2))
            _ = try await database.createLocation(NewLocation(roomID: hall.id, x: 2, y: 0))
            let wall = WallSegment(x1: 1, y1: -1, x2: 1, y2: 1.5)
            let autolinked = try await database.autolink(room: hall.id, AutolinkRequest(maxDistanceMetres: 3), walls: [wall])
            #expect(autolinked.created.map { [$0.from, $0.to] } == [[a.id, near.id]] && autolinked.blockedByWalls == 2)
            #expect(autolinked.created.first.map { $0.distanceMetres == 2 && $0.kind == .walk } == true)
            let again = try await database.autolink(room: hall.id, AutolinkRequest(maxDistanceMetres: 3), walls: [wall])
            #expect(again.created.isEmpty && again.alreadyLinked == 1)
            await #expect(throws: StoreError.notFound("no room 999")) { try await database.autolink(room: 999, AutolinkRequest(maxDistanceMetres: 3), walls: []) }
            try await database.deleteLink(autolinked.created[0].id)

            try await database.deleteLink(walk.id)
            await #expect(throws: StoreError.notFound("no link \(walk.id)")) { try await database.deleteLink(walk.id) }
            #expect(try await database.links(touching: nil) == [stairs])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func beaconsHaveOneIdentityEachAreReplacedFoundAndDeleted(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let floor = try await database.createFloor(NewFloor(name: "Ground"))
            let new = NewBeacon(
                uuid: Readings.beaconUUID, major: 1, minor: 2, floorID: floor.id, x: 1, y: 2, measuredPower: -59, metadata: ["item": "Vase"]
            )
            let vase = try await database.createBeacon(new)
            #expect(vase == Beacon(id: vase.id, new))
            var other = new
            other.minor = 3
            let bowl = try await database.createBeacon(other)
            #expect(try await database.beacon(vase.id) == vase)
            #expect(try await database.beacons(onFloor: floor.id) == [vase, bowl])
            #expect(try await database.beacons(onFloor: nil, matching: TagLookup(uuid: Readings.beaconUUID, major: 1, minor: 3)) == [bowl])

            await #expect(throws: StoreError.conflict("beacon \(vase.id) is already registered as \(BeaconID(uuid: Readings.beaconUUID, major: 1, minor: 2))")) {
                try await database.replaceBeacon(bowl.id, with: new)
            }
            var moved = other
            moved.x = 9
            moved.z = 1.5
            moved.metadata = ["item": "Bowl", "room": "Hall"]
            let replaced = try await database.replaceBeacon(bowl.id, with: moved)
            #expect(replaced == Beacon(id: bowl.id, moved))
            #expect(try await database.beacon(bowl.id) == replaced)

            var elsewhere = new
            elsewhere.floorID = 999
            await #expect(throws: StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor 999"))) {
                try await database.createBeacon(elsewhere)
            }
            await #expect(throws: StoreError.conflict("beacon \(vase.id) is already registered as \(BeaconID(uuid: Readings.beaconUUID, major: 1, minor: 2))")) {
                try await database.createBeacon(new)
            }
            await #expect(throws: StoreError.notFound("no beacon 999")) { try await database.beacon(999) }
            await #expect(throws: StoreError.notFound("no beacon 999")) { try await database.replaceBeacon(999, with: new) }
            await #expect(throws: StoreError.notFound("no floor 999")) { try await database.beacons(onFloor: 999) }
            #expect(try await database.beacons(onFloor: nil) == [vase, replaced])

            try await database.deleteBeacon(vase.id)
            await #expect(throws: StoreError.notFound("no beacon \(vase.id)")) { try await database.deleteBeacon(vase.id) }
            #expect(try await database.beacons(onFloor: nil) == [replaced])
        }
    }

    /// Deleting what a switch points at turns the switch off as a new revision; deleting the
    /// newest readings (a location's, through its cascade, or by clearing a room) leaves the
    /// measurement feed's end where it was, so a reader is never told an end below one it had.
    @Test(arguments: StoreBackend.allCases)
    func deletionsTurnOffSwitchesPointingInsideAndKeepTheFeedEnd(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let floor = try await database.createFloor(NewFloor(name: "Ground"))
            let hall = try await database.createRoom(NewRoom(floorID: floor.id, name: "Hall"))
            let porch = try await database.createRoom(NewRoom(floorID: floor.id, name: "Porch"))
            let spot = try await database.createLocation(NewLocation(roomID: hall.id, x: 1, y: 1))
            let door = try await database.createLocation(NewLocation(roomID: porch.id, x: 5, y: 1))

            let first = try await Self.survey(at: spot, readings: 2, in: database)
            #expect(try await database.clearRoom(porch.id) == ClearedRoom(roomID: porch.id, measurementsDeleted: 0))
            let second = try await Self.survey(at: door, readings: 3, in: database)
            #expect(second > first)

            #expect(try await database.clearRoom(porch.id) == ClearedRoom(roomID: porch.id, measurementsDeleted: 3))
            #expect(try await database.endOfMeasurementFeed() == second)
            let remaining = try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 10)
            #expect(remaining.items.count == 2 && remaining.endOfFeed == second)

            let on = try await database.currentSwitch(of: .default)
            #expect(on.scanning && on.locationID == door.id)
            let deletion = try await database.deleteLocation(door.id, at: Self.now)
            #expect(deletion.switchesTurnedOff.map(\.revision) == [on.revision + 1])
            let off = try await database.currentSwitch(of: .default)
            #expect(!off.scanning && off.roomID == nil && off.locationID == nil && off.revision == on.revision + 1)
            await #expect(throws: StoreError.notFound("no location \(door.id)")) { try await database.deleteLocation(door.id, at: Self.now) }

            let gone = try await database.deleteFloor(floor.id, at: Self.now)
            #expect(gone.switchesTurnedOff.isEmpty)
            #expect(try await database.rooms(onFloor: nil).isEmpty)
            #expect(try await database.locations(inRoom: nil, onFloor: nil).isEmpty)
            #expect(try await database.measurements(matching: MeasurementFilter(), after: 0, limit: 10).items.isEmpty)
            #expect(try await database.endOfMeasurementFeed() == second)
        }
    }

    /// The ground floor and the first, in the building `main`.
    static func twoFloors(in database: AppDatabase) async throws -> (Floor, Floor) {
        (try await database.createFloor(NewFloor(name: "Ground")), try await database.createFloor(NewFloor(name: "First", level: 1)))
    }

    /// A hall and a porch on `floor`, a landing on `upstairs`.
    static func threeRooms(on floor: Floor, _ upstairs: Floor, in database: AppDatabase) async throws -> (Room, Room, Room) {
        (
            try await database.createRoom(NewRoom(floorID: floor.id, name: "Hall")),
            try await database.createRoom(NewRoom(floorID: floor.id, name: "Porch")),
            try await database.createRoom(NewRoom(floorID: upstairs.id, name: "Landing"))
        )
    }

    /// Turns the default scanner's switch on in survey mode at `location`, stores `readings`
    /// readings there, and returns the feed's last sequence.
    static func survey(at location: Location, readings: Int, in database: AppDatabase) async throws -> Int64 {
        let revision = try await database.updateSwitch(
            of: .default, with: SwitchPatch(scanning: true, mode: .survey, locationID: .set(location.id), storeData: true), at: now
        ).scanSwitch.revision
        let batch = Readings.batch((0 ..< readings).map { Readings.wifi(scan: $0, rssi: -50 - $0, at: Double($0)) }, revision: revision)
        let outcome = try await database.ingest(batch, at: now)
        #expect(outcome.receipt.stored == readings)
        return try #require(outcome.lastSequence)
    }

    /// Three control points that fit (not on one line, on the plan or on Earth).
    static let controlPoints = NewGeoreference(controlPoints: [
        ControlPoint(x: 0, y: 0, latitude: 51.5, longitude: -0.1),
        ControlPoint(x: 100, y: 0, latitude: 51.5, longitude: -0.0986),
        ControlPoint(x: 0, y: 100, latitude: 51.4991, longitude: -0.1),
    ])
}
