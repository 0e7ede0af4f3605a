import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Bad requests to the positioning routes get a precise error, and nothing stored changes. The
/// world is ``PositioningWorld`` with beacon 1 (minor 1) on the ground floor and link 1 A—B.
@Suite struct PositioningBadInputTests {
    typealias Case = BadInputTests.Case

    static let beacon = #""uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "floorID": 1, "x": 1, "y": 2"#
    static func position(_ fields: String) -> String {
        #"{"scannerID": "default", "time": "2026-11-22T06:50:00.123Z", "building": "main", "floor": 1, "x": 1, "y": 2, "accuracyMetres": 3, "method": "wifi-knn"\#(fields)}"#
    }

    static let cases: [Case] = [
        Case(method: .post, path: "/v1/beacons", body: "{", status: .badRequest, code: "malformed_json"),
        Case(method: .post, path: "/v1/beacons", body: #"{\#(beacon), "minor": 2}"#, status: .unprocessableContent, code: "invalid_field", field: "measuredPower"),
        Case(method: .post, path: "/v1/beacons", body: #"{\#(beacon), "minor": 2, "measuredPower": 5}"#, status: .unprocessableContent, code: "invalid_field", field: "measuredPower"),
        Case(method: .post, path: "/v1/beacons", body: #"{\#(beacon), "minor": 2, "measuredPower": -500}"#, status: .unprocessableContent, code: "invalid_field", field: "measuredPower"),
        Case(method: .post, path: "/v1/beacons", body: #"{\#(beacon), "minor": 1, "measuredPower": -59}"#, status: .conflict, code: "conflict"),
        Case(
            method: .post, path: "/v1/beacons", body: #"{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 2, "floorID": 99, "x": 1, "y": 2, "measuredPower": -59}"#,
            status: .unprocessableContent, code: "invalid_field", field: "floorID"
        ),
        Case(
            method: .post, path: "/v1/beacons", body: #"{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 2, "floorID": 1, "x": 1e9, "y": 2, "measuredPower": -59}"#,
            status: .unprocessableContent, code: "invalid_field", field: "x"
        ),
        Case(method: .post, path: "/v1/beacons", body: #"{\#(beacon), "minor": 2, "z": 500, "measuredPower": -59}"#, status: .unprocessableContent, code: "invalid_field", field: "z"),
        Case(method: .post, path: "/v1/beacons", body: #"{\#(beacon), "minor": 70000, "measuredPower": -59}"#, status: .unprocessableContent, code: "invalid_field", field: "(body)"),
        Case(method: .post, path: "/v1/beacons", body: #"{\#(beacon), "minor": 2, "measuredPower": -59, "metadata": {"": "x"}}"#, status: .unprocessableContent, code: "invalid_field", field: "metadata"),
        Case(
            method: .post, path: "/v1/beacons", body: #"{\#(beacon), "minor": 2, "measuredPower": -59, "metadata": {"note": "\#(String(repeating: "n", count: 300))"}}"#,
            status: .unprocessableContent, code: "invalid_field", field: "metadata.note"
        ),
        Case(
            method: .post, path: "/v1/beacons",
            body: #"{\#(beacon), "minor": 2, "measuredPower": -59, "metadata": {\#((0..<33).map { "\"k\($0)\": \"v\"" }.joined(separator: ", "))}}"#,
            status: .unprocessableContent, code: "invalid_field", field: "metadata"
        ),
        Case(method: .post, path: "/v1/beacons", body: #"{"major": 1, "minor": 2}"#, status: .unprocessableContent, code: "invalid_field", field: "uuid"),
        Case(method: .put, path: "/v1/beacons/99", body: #"{\#(beacon), "minor": 2, "measuredPower": -59}"#, status: .notFound, code: "not_found"),
        Case(method: .put, path: "/v1/beacons/1", body: #"{\#(beacon), "minor": 1, "measuredPower": 9}"#, status: .unprocessableContent, code: "invalid_field", field: "measuredPower"),
        Case(method: .get, path: "/v1/beacons/99", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/beacons?floor=99", status: .notFound, code: "not_found"),
        Case(method: .delete, path: "/v1/beacons/99", status: .notFound, code: "not_found"),
        Case(method: .patch, path: "/v1/beacons/1", body: "{}", status: .methodNotAllowed, code: "method_not_allowed"),

        Case(method: .post, path: "/v1/links", body: #"{"from": 1, "to": 2"#, status: .badRequest, code: "malformed_json"),
        Case(method: .post, path: "/v1/links", body: #"{"from": 2, "to": 1, "kind": "walk"}"#, status: .conflict, code: "conflict"),
        Case(method: .post, path: "/v1/links", body: #"{"from": 1, "to": 1, "kind": "walk"}"#, status: .unprocessableContent, code: "invalid_field", field: "to"),
        Case(method: .post, path: "/v1/links", body: #"{"from": 1, "to": 3, "kind": "walk"}"#, status: .unprocessableContent, code: "invalid_field", field: "kind"),
        Case(method: .post, path: "/v1/links", body: #"{"from": 1, "to": 3, "kind": "hop"}"#, status: .unprocessableContent, code: "invalid_field", field: "kind"),
        Case(method: .post, path: "/v1/links", body: #"{"from": 99, "to": 3, "kind": "walk"}"#, status: .unprocessableContent, code: "invalid_field", field: "from"),
        Case(method: .post, path: "/v1/links", body: #"{"from": 1, "to": 5, "kind": "lift"}"#, status: .unprocessableContent, code: "invalid_field", field: "distanceMetres"),
        Case(method: .post, path: "/v1/links", body: #"{"from": 1, "to": 3, "kind": "lift", "distanceMetres": -2}"#, status: .unprocessableContent, code: "invalid_field", field: "distanceMetres"),
        Case(method: .delete, path: "/v1/links/99", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/links/abc", status: .notFound, code: "not_found"),

        Case(method: .post, path: "/v1/routes", body: "[", status: .badRequest, code: "malformed_json"),
        Case(method: .post, path: "/v1/routes", body: #"{"from": 1, "to": 99}"#, status: .notFound, code: "not_found"),
        Case(method: .post, path: "/v1/routes", body: #"{"from": 1, "to": 3}"#, status: .unprocessableContent, code: "invalid_field", field: "to"),
        Case(method: .post, path: "/v1/routes", body: #"{"from": 1, "to": 2, "walkingSpeed": 0}"#, status: .unprocessableContent, code: "invalid_field", field: "walkingSpeed"),
        Case(method: .get, path: "/v1/routes", status: .methodNotAllowed, code: "method_not_allowed"),

        Case(method: .post, path: "/v1/positions", body: "{", status: .badRequest, code: "malformed_json"),
        Case(method: .post, path: "/v1/positions", body: position("").replacingOccurrences(of: "\"default\"", with: "\"nobody\""), status: .notFound, code: "not_found"),
        Case(
            method: .post, path: "/v1/positions",
            body: position(#", "beacons": [{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 1, "rssi": 500, "samples": 3, "proximity": "far"}]"#),
            status: .unprocessableContent, code: "invalid_field", field: "beacons[0].rssi"
        ),
        Case(
            method: .post, path: "/v1/positions",
            body: position(#", "beacons": [{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 1, "rssi": -60, "samples": 3, "proximity": "close"}]"#),
            status: .unprocessableContent, code: "invalid_field", field: "beacons[0].proximity"
        ),
        Case(method: .post, path: "/v1/positions", body: position("").replacingOccurrences(of: "\"floor\": 1", with: "\"floor\": 99"), status: .unprocessableContent, code: "invalid_field", field: "floor"),
        Case(method: .post, path: "/v1/positions", body: position("").replacingOccurrences(of: "\"main\"", with: "\"annex\""), status: .unprocessableContent, code: "invalid_field", field: "building"),
        Case(method: .post, path: "/v1/positions", body: position(#", "roomID": 99"#), status: .unprocessableContent, code: "invalid_field", field: "roomID"),
        Case(method: .post, path: "/v1/positions", body: position(#", "roomID": 2"#), status: .unprocessableContent, code: "invalid_field", field: "roomID"),
        Case(method: .post, path: "/v1/positions", body: position(#", "nearestLocationID": 99"#), status: .unprocessableContent, code: "invalid_field", field: "nearestLocationID"),
        Case(method: .post, path: "/v1/positions", body: position(#", "nearestLocationID": 3"#), status: .unprocessableContent, code: "invalid_field", field: "nearestLocationID"),
        Case(method: .post, path: "/v1/positions", body: position("").replacingOccurrences(of: "\"accuracyMetres\": 3", with: "\"accuracyMetres\": -1"), status: .unprocessableContent, code: "invalid_field", field: "accuracyMetres"),
        Case(method: .post, path: "/v1/positions", body: position("").replacingOccurrences(of: "\"x\": 1", with: "\"x\": 1e300"), status: .unprocessableContent, code: "invalid_field", field: "x"),
        Case(method: .post, path: "/v1/positions", body: position("").replacingOccurrences(of: "\"wifi-knn\"", with: "\" \""), status: .unprocessableContent, code: "invalid_field", field: "method"),
        Case(method: .post, path: "/v1/positions", body: position("").replacingOccurrences(of: "\"wifi-knn\"", with: "\"\(String(repeating: "m", count: 65))\""), status: .unprocessableContent, code: "invalid_field", field: "method"),
        Case(method: .post, path: "/v1/positions", body: position("").replacingOccurrences(of: "2026-11-22T06:50:00.123Z", with: "noon"), status: .unprocessableContent, code: "invalid_field", field: "time"),
        Case(method: .get, path: "/v1/positions?limit=1001", status: .unprocessableContent, code: "invalid_field", field: "limit"),
        Case(method: .get, path: "/v1/positions/latest?scannerID=default", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/positions/stream?after=x", status: .unprocessableContent, code: "invalid_field", field: "after"),
        Case(method: .post, path: "/v1/radiomap", body: "{}", status: .methodNotAllowed, code: "method_not_allowed"),
    ]

    @Test(arguments: cases)
    func isRefusedAndChangesNothing(_ badCase: Case) async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            _ = try await client.expect(.created, .post, "/v1/beacons", json: Beacons.new(floorID: world.ground.id), as: Beacon.self)
            _ = try await client.expect(.created, .post, "/v1/links", json: NewLink(from: world.a.id, to: world.b.id, kind: .walk), as: Link.self)
            try await BadInputTests.expectRefused(badCase, by: client, leaving: { try await Self.counts(database) })
        }
    }

    /// Rows in the positioning tables and the survey version.
    static func counts(_ database: AppDatabase) async throws -> [Int] {
        try await database.writer.read { db in
            try ["SELECT COUNT(*) FROM beacon", "SELECT COUNT(*) FROM link", "SELECT COUNT(*) FROM position", "SELECT version FROM survey_version"]
                .map { try Int.fetchOne(db, sql: $0) ?? -1 }
        }
    }
}
