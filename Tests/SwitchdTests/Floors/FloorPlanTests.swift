import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `PUT/GET /v1/floors/{id}/plan`: the plan image, recognised by its bytes and size-limited.
@Suite struct FloorPlanTests {
    /// A PNG's signature and IHDR chunk: enough for the format to be told from its bytes.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 4, 0, 0, 0, 3, 8, 2, 0, 0, 0]
    static let svg = #"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20"/></svg>"#

    func put(_ client: some TestClientProtocol, floor: Int64, _ bytes: [UInt8], claiming type: String = "image/png") async throws -> TestResponse {
        try await client.execute(uri: "/v1/floors/\(floor)/plan", method: .put, headers: [.contentType: type], body: ByteBuffer(bytes: bytes))
    }

    @Test func anUploadedPNGComesBackAsItWasWithItsType() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            #expect(floor.plan == nil)
            let uploaded = try await put(client, floor: floor.id, Self.png)
            #expect(uploaded.status == .ok)
            let withPlan = try decoded(Floor.self, uploaded)
            #expect(withPlan.plan == FloorPlanInfo(contentType: "image/png", bytes: Self.png.count))
            #expect(try await client.expect(.ok, get: "/v1/floors/\(floor.id)", as: Floor.self) == withPlan)

            let image = try await client.get("/v1/floors/\(floor.id)/plan")
            #expect(image.status == .ok)
            #expect(Array(image.body.readableBytesView) == Self.png)
            #expect(image.headers[.contentType] == "image/png")
            #expect(image.headers[.contentSecurityPolicy]?.contains("sandbox") == true)
        }
    }

    @Test func theFormatIsReadFromTheBytesNotTheClaimedType() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            let svg = try decoded(Floor.self, try await put(client, floor: floor.id, Array(Self.svg.utf8), claiming: "image/png"))
            #expect(svg.plan?.contentType == "image/svg+xml")
            let jpeg = try decoded(Floor.self, try await put(client, floor: floor.id, [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46], claiming: "text/plain"))
            #expect(jpeg.plan == FloorPlanInfo(contentType: "image/jpeg", bytes: 8), "a second upload replaces the first")
            #expect(try await client.get("/v1/floors/\(floor.id)/plan").headers[.contentType] == "image/jpeg")
        }
    }

    /// Bytes with `<svg` near their start that are no SVG document: each is refused 415 and the
    /// plan stored before stays.
    static let notSVG: [String] = [
        #"<!DOCTYPE html><html><head><title>x</title></head><body><svg xmlns="http://www.w3.org/2000/svg"/><p>hi<br></body></html>"#,
        #"<html xmlns="http://www.w3.org/1999/xhtml"><body><svg xmlns="http://www.w3.org/2000/svg"/></body></html>"#,
        #"<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>"#,
        #"<svg><rect/></svg>"#,
        #"<svg xmlns="http://www.w3.org/2000/svg"><x:rect/></svg>"#,
    ]

    @Test(arguments: notSVG)
    func textWithSVGInsideThatIsNoSVGDocumentIs415(_ text: String) async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            #expect(try await put(client, floor: floor.id, Self.png).status == .ok)
            let response = try await put(client, floor: floor.id, Array(text.utf8), claiming: "image/svg+xml")
            #expect(response.status == .unsupportedMediaType)
            let error = try errorBody(response)
            #expect(error.code == "unsupported_media_type")
            #expect(error.message.contains("SVG"), "\(error.message)")
            #expect(try await client.get("/v1/floors/\(floor.id)/plan").headers[.contentType] == "image/png", "the stored plan stays")
        }
    }

    @Test func whatIsNoImageIs415AndNothingIsStored() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            for body in [Array("<html><body>hello</body></html>".utf8), [], [0x89, 0x50, 0x4E], Array("GIF89a".utf8)] {
                let response = try await put(client, floor: floor.id, body)
                #expect(response.status == .unsupportedMediaType, "\(body.prefix(8))")
                #expect(try errorBody(response).code == "unsupported_media_type")
            }
            let missing = try await client.get("/v1/floors/\(floor.id)/plan")
            #expect(missing.status == .notFound)
            #expect(try errorBody(missing).message == "floor \(floor.id) has no plan")
        }
    }

    @Test func aPlanOverTheLimitIs413() async throws {
        try await makeApp(try .inMemory(), maxPlanBytes: 64).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            let big = Self.png + [UInt8](repeating: 0, count: 64)
            let response = try await put(client, floor: floor.id, big)
            #expect(response.status == .contentTooLarge)
            #expect(try errorBody(response).code == "body_too_large")
            #expect(try errorBody(response).message.contains("64 bytes"))
            #expect(try await put(client, floor: floor.id, Self.png).status == .ok, "one under the limit is taken")
        }
    }

    @Test func anUnknownFloorHasNoPlanAndThePlanGoesWithItsFloor() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            #expect(try await put(client, floor: 99, Self.png).status == .notFound)
            #expect(try await client.get("/v1/floors/99/plan").status == .notFound)
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            #expect(try await put(client, floor: floor.id, Self.png).status == .ok)
            #expect(try await client.execute(uri: "/v1/floors/\(floor.id)", method: .delete).status == .noContent)
            #expect(try await client.get("/v1/floors/\(floor.id)/plan").status == .notFound)
        }
        let plans = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM floor_plan") }
        #expect(plans == 0)
    }
}
