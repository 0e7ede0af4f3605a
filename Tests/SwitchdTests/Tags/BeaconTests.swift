import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `/v1/beacons`: the registry's life cycle and its rules.
@Suite struct BeaconTests {
    @Test func createListShowReplaceDelete() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            var new = Beacons.new(floorID: world.ground.id)
            new.metadata = ["asset": "stairwell B"]
            let created = try await client.expect(.created, .post, "/v1/beacons", json: new, as: Beacon.self)
            #expect(created == Beacon(
                id: created.id, uuid: Readings.beaconUUID, major: 1, minor: 1, floorID: world.ground.id,
                x: 1, y: 2, z: 0, measuredPower: -59, metadata: ["asset": "stairwell B"]
            ))
            let other = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.first.id, minor: 2), as: Beacon.self)

            #expect(try await client.expect(.ok, get: "/v1/beacons", as: Page<Beacon>.self).items == [created, other])
            #expect(try await client.expect(.ok, get: "/v1/beacons?floor=\(world.first.id)", as: Page<Beacon>.self).items == [other])
            #expect(try await client.expect(.ok, get: "/v1/beacons/\(created.id)", as: Beacon.self) == created)

            var moved = Beacons.new(floorID: world.first.id, x: 9, y: 8, measuredPower: -65)
            moved.z = 2.5
            let replaced = try await client.expect(.ok, .put, "/v1/beacons/\(created.id)", json: moved, as: Beacon.self)
            #expect(replaced == Beacon(id: created.id, moved))
            #expect(replaced.metadata.isEmpty, "PUT replaces the whole beacon")
            #expect(try await client.expect(.ok, get: "/v1/beacons/\(created.id)", as: Beacon.self) == replaced)

            #expect(try await client.execute(uri: "/v1/beacons/\(created.id)", method: .delete).status == .noContent)
            #expect(try await client.get("/v1/beacons/\(created.id)").status == .notFound)
            #expect(try await client.execute(uri: "/v1/beacons/\(created.id)", method: .delete).status == .notFound)
        }
    }

    @Test func anIdentityIsRegisteredOnce() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let first = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.ground.id), as: Beacon.self)
            let clash = try await client.send(.post, "/v1/beacons", json: Beacons.new(floorID: world.first.id, x: 5))
            #expect(clash.status == .conflict)
            #expect(try errorBody(clash).code == "conflict")
            #expect(try errorBody(clash).message.contains("beacon \(first.id)"))

            let second = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.ground.id, minor: 2), as: Beacon.self)
            #expect(try await client.send(.put, "/v1/beacons/\(second.id)", json: Beacons.new(floorID: world.ground.id, minor: 1)).status == .conflict)
            // Keeping its own identity is not a clash.
            #expect(try await client.send(.put, "/v1/beacons/\(second.id)", json: Beacons.new(floorID: world.ground.id, minor: 2, x: 3)).status == .ok)
        }
    }

    @Test func beaconsGoWithTheirFloor() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.router) { client in
                let world = try await PositioningWorld.make(client)
                let kept = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.ground.id), as: Beacon.self)
                _ = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.first.id, minor: 2), as: Beacon.self)
                #expect(try await client.execute(uri: "/v1/floors/\(world.first.id)", method: .delete).status == .noContent)
                #expect(try await client.expect(.ok, get: "/v1/beacons", as: Page<Beacon>.self).items == [kept])
            }
        }
    }
}
