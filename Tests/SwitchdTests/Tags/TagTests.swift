import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `/v1/tags`: the registry, its lookup by identity, and the same lookup on `/v1/beacons`.
@Suite struct TagTests {
    static let eddystone = TagIdentity.eddystoneUID(namespace: "edd1ebeac04e5defa017", instance: "0123456789ab")
    static let altBeacon = TagIdentity.altBeacon(String(repeating: "ab", count: 20))
    static let address = TagIdentity.address(MACAddress(rawValue: 0xAA_BB_CC_00_11_22))

    @Test func createListShowPatchDelete() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let bike = try await client.expect(
                .created, .post, "/v1/tags", json: NewTag(name: "Bike", identity: TagWorld.tagIdentity, metadata: ["owner": "ada"]), as: ScanContract.Tag.self
            )
            #expect(bike == ScanContract.Tag(id: bike.id, name: "Bike", identity: TagWorld.tagIdentity, txPower: -59, missing: false, metadata: ["owner": "ada"]))
            var others: [ScanContract.Tag] = []
            for (index, identity) in [Self.eddystone, Self.altBeacon, Self.address].enumerated() {
                others.append(try await client.expect(
                    .created, .post, "/v1/tags", json: NewTag(name: "Tag \(index)", identity: identity, txPower: -65), as: ScanContract.Tag.self
                ))
            }
            #expect(try await client.expect(.ok, get: "/v1/tags", as: Page<ScanContract.Tag>.self).items == [bike] + others)
            #expect(try await client.expect(.ok, get: "/v1/tags/\(others[0].id)", as: ScanContract.Tag.self).identity == Self.eddystone)

            let patched = try await client.expect(.ok, .patch, "/v1/tags/\(bike.id)", json: TagPatch(missing: true, metadata: [:]), as: ScanContract.Tag.self)
            #expect(patched.missing && patched.metadata.isEmpty && patched.name == "Bike")
            #expect(try await client.expect(.ok, get: "/v1/tags/\(bike.id)", as: ScanContract.Tag.self) == patched)

            #expect(try await client.execute(uri: "/v1/tags/\(bike.id)", method: .delete).status == .noContent)
            #expect(try await client.get("/v1/tags/\(bike.id)").status == .notFound)
            #expect(try await client.execute(uri: "/v1/tags/\(bike.id)", method: .delete).status == .notFound)
        }
    }

    @Test func anIdentityIsRegisteredOnce() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let first = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "A", identity: Self.eddystone), as: ScanContract.Tag.self)
            let clash = try await client.send(.post, "/v1/tags", json: NewTag(name: "B", identity: Self.eddystone))
            #expect(clash.status == .conflict)
            #expect(try errorBody(clash).message.contains("tag \(first.id)"))
            let second = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "B", identity: Self.altBeacon), as: ScanContract.Tag.self)
            #expect(try await client.send(.patch, "/v1/tags/\(second.id)", json: TagPatch(identity: Self.eddystone)).status == .conflict)
            #expect(try await client.expect(.ok, get: "/v1/tags/\(second.id)", as: ScanContract.Tag.self) == second, "a refused patch changes nothing")
        }
    }

    @Test func lookupByIBeaconIdentityOrAddress() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let uuid = TagWorld.tagUUID
            var made: [ScanContract.Tag] = []
            for (major, minor) in [(7, 1), (7, 2), (8, 1)] {
                let identity = TagIdentity.iBeacon(BeaconID(uuid: uuid, major: UInt16(major), minor: UInt16(minor)))
                made.append(try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "\(major).\(minor)", identity: identity), as: ScanContract.Tag.self))
            }
            let byAddress = try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "keys", identity: Self.address), as: ScanContract.Tag.self)
            let text = uuid.uuidString
            #expect(try await client.expect(.ok, get: "/v1/tags?uuid=\(text)", as: Page<ScanContract.Tag>.self).items == made)
            #expect(try await client.expect(.ok, get: "/v1/tags?uuid=\(text)&major=7", as: Page<ScanContract.Tag>.self).items == Array(made.prefix(2)))
            #expect(try await client.expect(.ok, get: "/v1/tags?uuid=\(text)&major=7&minor=2", as: Page<ScanContract.Tag>.self).items == [made[1]])
            #expect(try await client.expect(.ok, get: "/v1/tags?uuid=\(UUID().uuidString)", as: Page<ScanContract.Tag>.self).items.isEmpty)
            #expect(try await client.expect(.ok, get: "/v1/tags?address=AA-BB-CC-00-11-22", as: Page<ScanContract.Tag>.self).items == [byAddress])

            let noUUID = try await client.get("/v1/tags?major=7")
            #expect(noUUID.status == .unprocessableContent)
            #expect(try errorBody(noUUID).field == "uuid")
            #expect(try errorBody(try await client.get("/v1/tags?uuid=nope")).field == "uuid")
            #expect(try errorBody(try await client.get("/v1/tags?uuid=\(text)&major=70000")).field == "major")
        }
    }

    @Test func beaconsAreLookedUpByIdentityToo() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            let one = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.ground.id, minor: 1), as: Beacon.self)
            let two = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.ground.id, minor: 2), as: Beacon.self)
            let uuid = Readings.beaconUUID.uuidString
            #expect(try await client.expect(.ok, get: "/v1/beacons?uuid=\(uuid)&major=1&minor=2", as: Page<Beacon>.self).items == [two])
            #expect(try await client.expect(.ok, get: "/v1/beacons?uuid=\(uuid)", as: Page<Beacon>.self).items == [one, two])
            #expect(try await client.expect(.ok, get: "/v1/beacons?uuid=\(uuid)&major=2", as: Page<Beacon>.self).items.isEmpty)
            #expect(try await client.get("/v1/beacons?minor=2").status == .unprocessableContent)
        }
    }

    @Test func badTagsAreRefusedNamingTheField() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let loud = try await client.send(.post, "/v1/tags", json: NewTag(name: "x", identity: Self.address, txPower: 10))
            #expect(try errorBody(loud).field == "txPower")
            let shortNamespace = try await client.send(
                .post, "/v1/tags", text: #"{"name":"x","identity":{"kind":"eddystone-uid","namespace":"abc","instance":"0123456789ab"}}"#
            )
            #expect(shortNamespace.status == .unprocessableContent)
            #expect(try errorBody(shortNamespace).field == "identity.namespace")
            let unknownKind = try await client.send(.post, "/v1/tags", text: #"{"name":"x","identity":{"kind":"nfc"}}"#)
            #expect(try errorBody(unknownKind).field == "identity.kind")
            #expect(try await client.expect(.ok, get: "/v1/tags", as: Page<ScanContract.Tag>.self).items.isEmpty)
        }
    }
}
