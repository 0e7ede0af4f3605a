import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// An SVG plan can make switchd do no more than read it once, within a budget, off the threads that
/// serve requests: uploaded (422 naming the problem, nothing stored changes) or already stored
/// (read as a plan without walls, logged once).
@Suite struct SVGPlanSafetyTests {
    /// A plan as bytes, with the error code an upload of it gets and words its message holds.
    struct Plan: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var bytes: [UInt8]
        var code: String
        var saying: String
    }

    static let svgOpen = #"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">"#
    /// A wall from (50, 0) to (50, 100): what a plan that is read would stand between two locations.
    static let wall = #"<g id="walls"><line x1="50" y1="0" x2="50" y2="100"/></g>"#

    /// Ten levels of entities, each ten of the one below: 10⁹ "lol"s once expanded. `declare` is
    /// how `<!ENTITY` is spelled (in UTF-7 it hides as `<+ACE-ENTITY`).
    static func billionLaughs(declare: String = "<!ENTITY") -> String {
        var declarations = "\(declare) lol0 \"lol\">"
        for level in 1...9 {
            declarations += "\(declare) lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        return "<!DOCTYPE svg [\(declarations)]>\(svgOpen)\(wall)<text>&lol9;</text></svg>"
    }

    /// One long entity referred to many times: the blow-up that took switchd hours, in UTF-7.
    static let quadraticUTF7 = #"<?xml version="1.0" encoding="UTF-7"?><!--<svg-->"#
        + "<!DOCTYPE svg [<+ACE-ENTITY a \"\(String(repeating: "a", count: 4096))\">]>"
        + "\(svgOpen)\(wall)<text>\(String(repeating: "&a;", count: 4096))</text></svg>"

    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        let units = text.utf16.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        return (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) + units
    }

    static let declaredUTF16 = #"<?xml version="1.0" encoding="UTF-16"?>"# + billionLaughs()

    /// Each is refused whatever spelling or encoding hides its DTD.
    static let hostile: [Plan] = [
        Plan(testDescription: "billion laughs", bytes: Array(billionLaughs().utf8), code: "svg_dtd", saying: "declares an entity lol0"),
        Plan(
            testDescription: "billion laughs in UTF-7", bytes: Array((#"<?xml version="1.0" encoding="UTF-7"?>"# + billionLaughs(declare: "<+ACE-ENTITY")).utf8),
            code: "svg_encoding", saying: "UTF-7"
        ),
        Plan(testDescription: "quadratic blow-up in UTF-7", bytes: Array(quadraticUTF7.utf8), code: "svg_encoding", saying: "UTF-7"),
        Plan(testDescription: "billion laughs in UTF-16LE", bytes: utf16(declaredUTF16, bigEndian: false), code: "svg_dtd", saying: "declares an entity lol0"),
        Plan(testDescription: "billion laughs in UTF-16BE", bytes: utf16(declaredUTF16, bigEndian: true), code: "svg_dtd", saying: "declares an entity lol0"),
        Plan(
            testDescription: "billion laughs in ISO-8859-1", bytes: Array((#"<?xml version="1.0" encoding="ISO-8859-1"?>"# + billionLaughs()).utf8),
            code: "svg_dtd", saying: "declares an entity lol0"
        ),
        Plan(
            testDescription: "an external entity",
            bytes: Array(#"<!DOCTYPE svg [<!ENTITY x SYSTEM "http://127.0.0.1:9/x">]>\#(svgOpen)<text>&x;</text></svg>"#.utf8),
            code: "svg_dtd", saying: "declares an entity x"
        ),
        Plan(
            testDescription: "a parameter entity",
            bytes: Array(#"<!DOCTYPE svg [<!ENTITY % p "<!ENTITY q 'q'>"> %p;]>\#(svgOpen)</svg>"#.utf8),
            code: "svg_dtd", saying: "declares an entity p"
        ),
        Plan(
            testDescription: "an attribute list", bytes: Array(#"<!DOCTYPE svg [<!ATTLIST line class CDATA "wall">]>\#(svgOpen)</svg>"#.utf8),
            code: "svg_dtd", saying: "declares an attribute list line"
        ),
        Plan(
            testDescription: "an undeclared entity",
            bytes: Array(#"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://127.0.0.1:9/svg11.dtd">\#(svgOpen)<text>&nbsp;</text></svg>"#.utf8),
            code: "svg_dtd", saying: "nbsp"
        ),
        Plan(testDescription: "UTF-7 without a DTD", bytes: Array(#"<?xml version="1.0" encoding="UTF-7"?>\#(svgOpen)</svg>"#.utf8), code: "svg_encoding", saying: "UTF-7"),
    ]

    func put(_ client: some TestClientProtocol, floor: Int64, _ bytes: [UInt8]) async throws -> TestResponse {
        try await client.execute(uri: "/v1/floors/\(floor)/plan", method: .put, headers: [.contentType: "image/svg+xml"], body: ByteBuffer(bytes: bytes))
    }

    @Test(arguments: hostile)
    func anUploadWithADTDInAnyEncodingIs422AndTheStoredPlanStays(_ plan: Plan) async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            #expect(try await put(client, floor: floor.id, Array(FloorPlanTests.svg.utf8)).status == .ok)
            let response = try await put(client, floor: floor.id, plan.bytes)
            #expect(response.status == .unprocessableContent)
            let error = try errorBody(response)
            #expect(error.code == plan.code)
            #expect(error.message.contains("SVG plan") && error.message.contains(plan.saying), "\(error.message)")
            let stored = try await client.get("/v1/floors/\(floor.id)/plan")
            #expect(Array(stored.body.readableBytesView) == Array(FloorPlanTests.svg.utf8), "the stored plan stays")
        }
    }

    /// What the rules above do not refuse.
    static let taken: [Plan] = [
        Plan(
            testDescription: "a DOCTYPE naming the SVG 1.1 DTD, never loaded",
            bytes: Array(#"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://127.0.0.1:9/svg11.dtd">\#(svgOpen)\#(wall)<text>&amp;&#233;</text></svg>"#.utf8),
            code: "", saying: ""
        ),
        Plan(testDescription: "UTF-16LE", bytes: utf16(#"<?xml version="1.0" encoding="UTF-16"?>\#(svgOpen)\#(wall)</svg>"#, bigEndian: false), code: "", saying: ""),
        Plan(testDescription: "UTF-16BE", bytes: utf16("\(svgOpen)\(wall)</svg>", bigEndian: true), code: "", saying: ""),
        Plan(
            testDescription: "ISO-8859-1",
            bytes: Array(#"<?xml version="1.0" encoding="ISO-8859-1"?>\#(svgOpen)<text>"#.utf8) + [0x43, 0x61, 0x66, 0xE9] + Array("</text></svg>".utf8),
            code: "", saying: ""
        ),
    ]

    @Test(arguments: taken)
    func plansWithoutDeclarationsInTheEncodingsReadAreTaken(_ plan: Plan) async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            let response = try await put(client, floor: floor.id, plan.bytes)
            #expect(response.status == .ok, "\(String(decoding: response.body.readableBytesView, as: UTF8.self))")
            #expect(try decoded(Floor.self, response).plan == FloorPlanInfo(contentType: "image/svg+xml", bytes: plan.bytes.count))
        }
    }

    @Test func aPlanOverTheElementOrTimeBudgetIs422() async throws {
        let elements = SVGPlanReader(budget: SVGBudget(maxBytes: 1 << 20, maxElements: 3, maxDuration: .seconds(3600)))
        try await makeApp(try .inMemory(), svgPlans: elements).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            let three = "\(Self.svgOpen)<g><rect/></g></svg>", four = "\(Self.svgOpen)<g><rect/><rect/></g></svg>"
            #expect(try await put(client, floor: floor.id, Array(three.utf8)).status == .ok, "three elements are within the budget")
            let response = try await put(client, floor: floor.id, Array(four.utf8))
            #expect(response.status == .unprocessableContent)
            #expect(try errorBody(response).code == "svg_over_budget")
            #expect(try errorBody(response).message.contains("at most 3 elements"))
            #expect(try await client.get("/v1/floors/\(floor.id)/plan").body.readableBytes == three.utf8.count, "the stored plan stays")
        }
        // A deadline at the start of the parse is past at the first element, however fast the machine.
        let time = SVGPlanReader(budget: SVGBudget(maxBytes: 1 << 20, maxElements: 100, maxDuration: .zero))
        try await makeApp(try .inMemory(), svgPlans: time).test(.router) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            let response = try await put(client, floor: floor.id, Array(FloorPlanTests.svg.utf8))
            #expect(response.status == .unprocessableContent)
            #expect(try errorBody(response).code == "svg_over_budget")
            #expect(try errorBody(response).message.contains("read within"))
            #expect(try await client.get("/v1/floors/\(floor.id)/plan").status == .notFound)
        }
    }

    /// Stored plans switchd no longer reads: a DTD in three encodings, and one over the budget the
    /// app is given below (more than 20 elements).
    static let storedHostile: [Plan] = [
        Plan(testDescription: "billion laughs", bytes: Array(billionLaughs().utf8), code: "", saying: "declares an entity lol0"),
        Plan(testDescription: "quadratic blow-up in UTF-7", bytes: Array(quadraticUTF7.utf8), code: "", saying: "UTF-7"),
        Plan(testDescription: "billion laughs in UTF-16LE", bytes: utf16(declaredUTF16, bigEndian: false), code: "", saying: "declares an entity lol0"),
        Plan(
            testDescription: "over the budget", bytes: Array((svgOpen + wall + String(repeating: "<g/>", count: 20) + "</svg>").utf8),
            code: "", saying: "at most 20 elements"
        ),
    ]

    @Test(arguments: storedHostile)
    func aStoredPlanThatCannotBeReadHasNoWallsAndIsLoggedOnce(_ plan: Plan) async throws {
        let database = try AppDatabase.inMemory()
        let lines = TokenLoggingTests.LogLines()
        let logger = Logger(label: "switchd-tests") { _ in TokenLoggingTests.CollectingHandler(sink: lines) }
        let reader = SVGPlanReader(budget: SVGBudget(maxBytes: 1 << 20, maxElements: 20, maxDuration: .seconds(3600)))
        try await makeApp(database, svgPlans: reader, logger: logger).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let floorID = spot.floor.id
            _ = try await client.expect(
                .ok, .patch, "/v1/floors/\(floorID)", json: FloorPatch(scale: .set(PlanScale(metresPerPixel: 0.1, originX: 0, originY: 0))), as: Floor.self
            )
            // The row as a switchd that checked less could have stored it.
            try await database.writer.write { db in
                try db.execute(
                    sql: "INSERT INTO floor_plan (floor_id, format, image, updated_ms) VALUES (?, 'svg', ?, 0)", arguments: [floorID, Data(plan.bytes)]
                )
            }
            // (2.5, 3) and (7.5, 3): the plan's wall at x = 5 m would stand between them, were it read.
            let across = try await client.expect(.created, .post, "/v1/locations", json: NewLocation(roomID: spot.room.id, x: 7.5, y: 3), as: Location.self)
            let linked = try await client.expect(
                .ok, .post, "/v1/rooms/\(spot.room.id)/autolink", json: AutolinkRequest(maxDistanceMetres: 6), as: AutolinkResult.self
            )
            #expect(linked.walls == 0 && linked.blockedByWalls == 0)
            #expect(linked.created.map { Set([$0.from, $0.to]) } == [[spot.location.id, across.id]])
            let again = try await client.expect(
                .ok, .post, "/v1/rooms/\(spot.room.id)/autolink", json: AutolinkRequest(maxDistanceMetres: 6), as: AutolinkResult.self
            )
            #expect(again.walls == 0 && again.alreadyLinked == 1)
            let image = try await client.get("/v1/floors/\(floorID)/plan")
            #expect(image.status == .ok && Array(image.body.readableBytesView) == plan.bytes, "the plan is still served as stored")
            #expect(try await client.get("/healthz").status == .ok)
        }
        let warnings = lines.all.filter { $0.contains("cannot be read") }
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains(plan.saying) == true, "\(warnings)")
    }

    /// Holds every parse until released; announces each as it starts.
    final class HeldParse: @unchecked Sendable {
        private let condition = NSCondition()
        private var released = false
        let (starts, started) = AsyncStream.makeStream(of: Void.self)

        func hold() {
            started.yield()
            condition.lock()
            while !released { condition.wait() }
            condition.unlock()
        }

        func release() {
            condition.lock()
            released = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// More uploads than Swift has cooperative threads, all held in the parse: were the parse on
    /// those threads, nothing else could be answered.
    @Test(.timeLimit(.minutes(1)))
    func healthzAnswersWhilePlansAreBeingRead() async throws {
        let held = HeldParse()
        let reader = SVGPlanReader(budget: .standard(maxBytes: Settings.defaultMaxPlanBytes), willParse: held.hold)
        var large = Self.svgOpen + "<g id=\"walls\">"
        for index in 0..<20_000 { large += "<line x1=\"\(index % 100)\" y1=\"0\" x2=\"\(index % 100)\" y2=\"100\"/>" }
        let plan = Array((large + "</g></svg>").utf8)
        // Released however the test ends, or a parse would stay held and the test process with it.
        defer { held.release() }
        // A connection per request (AsyncHTTPClient's pool): on one, requests wait for each other.
        try await makeApp(try .inMemory(), svgPlans: reader).test(.ahc(.http)) { client in
            let floor = try await client.expect(.created, .post, "/v1/floors", json: NewFloor(name: "Ground"), as: Floor.self)
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0...ProcessInfo.processInfo.activeProcessorCount {
                    group.addTask { try await put(client, floor: floor.id, plan).status }
                }
                var starts = held.starts.makeAsyncIterator()
                _ = await starts.next()
                #expect(try await client.get("/healthz").status == .ok)
                #expect(try await client.get("/v1/floors/\(floor.id)").status == .ok)
                held.release()
                for try await status in group {
                    #expect(status == .ok)
                }
            }
        }
    }
}
