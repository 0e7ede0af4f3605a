import Foundation
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `GET /v1/tags`, `/v1/beacons`, `/v1/webhooks` and `/v1/scanners` answer in pages (issue 36: a
/// list of every tag at once grew without bound with the registry).
@Suite struct ListPagingTests {
    /// Every item of `path`, `limit` at a time, following `nextCursor`; and how many pages it took.
    func follow<Item: Codable & Sendable>(
        _ client: some TestClientProtocol, _ path: String, limit: Int, as: Item.Type
    ) async throws -> (items: [Item], pages: Int) {
        var items: [Item] = []
        var pages = 0
        var cursor: String?
        repeat {
            let page = try await client.expect(
                .ok, get: "\(path)?limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? ""), as: Page<Item>.self
            )
            #expect(page.items.count <= limit)
            items += page.items
            pages += 1
            cursor = page.nextCursor
        } while cursor != nil && pages < 100
        return (items, pages)
    }

    @Test func everyListPagesWithACursorAndADefaultSize() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            var tags: [ScanContract.Tag] = []
            var beacons: [Beacon] = []
            var webhooks: [Webhook] = []
            var scanners = [ScanContract.Scanner(id: .default, name: "default")]
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(building: "B", name: "F"), as: Floor.self)
            for index in 0..<5 {
                let identity = TagIdentity.address(MACAddress(rawValue: 0xAA_BB_CC_00_00_00 + UInt64(index)))
                tags.append(try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Tag \(index)", identity: identity), as: ScanContract.Tag.self))
                beacons.append(try await client.expect(
                    .created, .post, "/v1/beacons", json: Beacons.new(floorID: floor.id, minor: UInt16(index + 1)), as: Beacon.self
                ))
                webhooks.append(try await client.expect(
                    .created, .post, "/v1/webhooks", json: NewWebhook(url: "https://example.org/hook-\(index)"), as: CreatedWebhook.self
                ).webhook)
                scanners.append(try await client.expect(
                    .created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("pi-\(index)")), as: ScanContract.Scanner.self
                ))
            }
            #expect(try await follow(client, "/v1/tags", limit: 2, as: ScanContract.Tag.self) == (tags, 3))
            #expect(try await follow(client, "/v1/beacons", limit: 2, as: Beacon.self) == (beacons, 3))
            #expect(try await follow(client, "/v1/webhooks", limit: 5, as: Webhook.self) == (webhooks, 1))
            // Listed with their health, which the answer to POST leaves out.
            let (listed, pages) = try await follow(client, "/v1/scanners", limit: 4, as: ScanContract.Scanner.self)
            #expect(listed.map { ScanContract.Scanner(id: $0.id, name: $0.name) } == scanners && pages == 2)
            #expect(listed.allSatisfy { $0.health?.online == false })
            // A lookup pages too.
            let lookedUp = try await client.expect(.ok, get: "/v1/beacons?uuid=\(Readings.beaconUUID.uuidString)&limit=3", as: Page<Beacon>.self)
            #expect(lookedUp.items == Array(beacons.prefix(3)) && lookedUp.nextCursor != nil)
            // Without a limit, a page holds 100.
            let page = try await client.expect(.ok, get: "/v1/tags", as: Page<ScanContract.Tag>.self)
            #expect(page.items == tags && page.nextCursor == nil)
        }
    }

    @Test func aLimitOverTheMostOrAForeignCursorIsRefusedNamingIt() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            for path in ["/v1/tags", "/v1/beacons", "/v1/webhooks", "/v1/scanners"] {
                let tooMany = try await client.get("\(path)?limit=\(QueryParameters.maxPageLimit + 1)")
                #expect(tooMany.status == .unprocessableContent, "\(path)")
                let error = try errorBody(tooMany)
                #expect(error.field == "limit" && error.message.contains("\(QueryParameters.maxPageLimit)"), "\(path): \(error.message)")
                #expect(try errorBody(try await client.get("\(path)?cursor=no%20pe")).field == "cursor", "\(path)")
            }
        }
    }

    /// docs/openapi.yaml gives each list's cursor a form (a sequence number, a scanner ID, an
    /// emitter key): any text of that form is a position and gets a page, never a 422.
    @Test func everyCursorOfTheDocumentedFormIsAPosition() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            for path in ["/v1/tags", "/v1/beacons", "/v1/webhooks", "/v1/measurements", "/v1/positions", "/v1/events"] {
                for cursor in ["0", "42", "9999999999999999999"] {
                    let response = try await client.get("\(path)?cursor=\(cursor)")
                    #expect(response.status == .ok, "\(path)?cursor=\(cursor)")
                }
            }
            let scanners = try await client.expect(.ok, get: "/v1/scanners?cursor=a.b_c-0", as: Page<ScanContract.Scanner>.self)
            #expect(scanners.items.map(\.id) == [.default])
            let emitters = try await client.get("/v1/emitters?cursor=%F0%9F%93%A1%20x")
            #expect(emitters.status == .ok)
        }
    }

    @Test func aScannerCursorKeepsItsPlaceWhenScannersComeAndGo() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            for id in ["b", "d"] {
                _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID(id)), as: ScanContract.Scanner.self)
            }
            let first = try await client.expect(.ok, get: "/v1/scanners?limit=2", as: Page<ScanContract.Scanner>.self)
            #expect(first.items.map(\.id.rawValue) == ["b", "d"])
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("c")), as: ScanContract.Scanner.self)
            let cursor = try #require(first.nextCursor)
            let rest = try await client.expect(.ok, get: "/v1/scanners?limit=2&cursor=\(cursor)", as: Page<ScanContract.Scanner>.self)
            #expect(rest.items.map(\.id.rawValue) == ["default"] && rest.nextCursor == nil)
        }
    }
}
