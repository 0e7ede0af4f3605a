import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Bad requests get a precise error, and nothing stored changes.
@Suite struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var method: HTTPRequest.Method
        var path: String
        var body: String?
        var status: HTTPResponse.Status
        var code: String
        var field: String?

        var testDescription: String { "\(method.rawValue) \(path) → \(status.code) \(field ?? code)" }
    }

    static let validReading = #"{"time": "2026-01-01T00:00:00.000Z", "rssi": -50, "bssid": "aa:bb:cc:dd:ee:ff", "frequencyMHz": 2412}"#

    /// A batch for the default scanner's revision 2 (a survey switch the test turns on).
    static func batch(_ readings: String) -> String {
        #"{"batchID": "\#(UUID().uuidString)", "scannerID": "default", "switchRevision": 2, "measurements": [\#(readings)]}"#
    }

    static let cases: [Case] = [
        Case(method: .post, path: "/v1/measurements", body: "{not json", status: .badRequest, code: "malformed_json"),
        Case(method: .post, path: "/v1/measurements", body: "", status: .badRequest, code: "malformed_json"),
        Case(method: .post, path: "/v1/floors", body: #"{"name": "Ground""#, status: .badRequest, code: "malformed_json"),
        Case(method: .patch, path: "/v1/scanners/default/switch", body: "scanning=true", status: .badRequest, code: "malformed_json"),
        Case(method: .post, path: "/v1/measurements", body: String(repeating: "[", count: 5000), status: .badRequest, code: "malformed_json"),
        Case(method: .post, path: "/v1/measurements", body: "[]", status: .unprocessableContent, code: "invalid_field", field: "(body)"),
        Case(
            method: .post, path: "/v1/measurements",
            body: batch(#"{"time": "2026-01-01T00:00:00.000Z", "rssi": "strong", "bssid": "aa:bb:cc:dd:ee:ff", "frequencyMHz": 2412}"#),
            status: .unprocessableContent, code: "invalid_field", field: "measurements[0].rssi"
        ),
        Case(
            method: .post, path: "/v1/measurements",
            body: batch(validReading + #", {"time": "2026-01-01T00:00:00.000Z", "rssi": 50, "bssid": "aa:bb:cc:dd:ee:ff", "frequencyMHz": 2412}"#),
            status: .unprocessableContent, code: "invalid_field", field: "measurements[1].rssi"
        ),
        Case(
            method: .post, path: "/v1/measurements",
            body: batch(#"{"time": "2026-01-01T00:00:00.000Z", "rssi": -50, "bssid": "aa:bb:cc:dd:ee", "frequencyMHz": 2412}"#),
            status: .unprocessableContent, code: "invalid_field", field: "measurements[0].bssid"
        ),
        Case(
            method: .post, path: "/v1/measurements",
            body: batch(#"{"time": "yesterday", "rssi": -50, "bssid": "aa:bb:cc:dd:ee:ff", "frequencyMHz": 2412}"#),
            status: .unprocessableContent, code: "invalid_field", field: "measurements[0].time"
        ),
        Case(
            method: .post, path: "/v1/measurements",
            body: batch(#"{"rssi": -50, "bssid": "aa:bb:cc:dd:ee:ff", "frequencyMHz": 2412}"#),
            status: .unprocessableContent, code: "invalid_field", field: "measurements[0].time"
        ),
        Case(
            method: .post, path: "/v1/measurements",
            body: batch(#"{"time": "2026-01-01T00:00:00.000Z", "rssi": -50, "bssid": "aa:bb:cc:dd:ee:ff", "frequencyMHz": 900}"#),
            status: .unprocessableContent, code: "invalid_field", field: "measurements[0].frequencyMHz"
        ),
        Case(
            method: .post, path: "/v1/measurements",
            body: batch(#"{"kind": "ble", "time": "2026-01-01T00:00:00.000Z", "rssi": -50, "address": "c0:ff:ee:00:00:01", "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 70000, "minor": 1, "txPower": -59}"#),
            // Scan decodes major/minor as Int and range-checks them, so the field is named.
            status: .unprocessableContent, code: "invalid_field", field: "measurements[0].major"
        ),
        Case(method: .post, path: "/v1/measurements", body: batch(""), status: .unprocessableContent, code: "invalid_field", field: "measurements"),
        Case(
            method: .post, path: "/v1/measurements",
            body: #"{"batchID": "not-a-uuid", "scannerID": "default", "switchRevision": 2, "measurements": [\#(validReading)]}"#,
            status: .unprocessableContent, code: "invalid_field", field: "batchID"
        ),
        Case(
            method: .post, path: "/v1/measurements",
            body: #"{"batchID": "\#(UUID().uuidString)", "scannerID": "default", "switchRevision": 0, "measurements": [\#(validReading)]}"#,
            status: .unprocessableContent, code: "invalid_field", field: "switchRevision"
        ),
        Case(method: .post, path: "/v1/floors", body: #"{"name": "  "}"#, status: .unprocessableContent, code: "invalid_field", field: "name"),
        Case(method: .post, path: "/v1/floors", body: #"{"name": "G", "level": 1.5}"#, status: .unprocessableContent, code: "invalid_field", field: "(body)"),
        Case(method: .post, path: "/v1/rooms", body: #"{"floorID": 999, "name": "Lab"}"#, status: .unprocessableContent, code: "invalid_field", field: "floorID"),
        Case(method: .post, path: "/v1/locations", body: #"{"roomID": 999, "x": 1, "y": 2}"#, status: .unprocessableContent, code: "invalid_field", field: "roomID"),
        Case(method: .post, path: "/v1/locations", body: #"{"roomID": 1, "x": 1e9, "y": 2}"#, status: .unprocessableContent, code: "invalid_field", field: "x"),
        Case(method: .post, path: "/v1/scanners", body: #"{"id": "has space"}"#, status: .unprocessableContent, code: "invalid_field", field: "id"),
        Case(method: .post, path: "/v1/scanners", body: #"{"id": "pi", "name": ""}"#, status: .unprocessableContent, code: "invalid_field", field: "name"),
        Case(method: .patch, path: "/v1/scanners/default/switch", body: #"{"stopAfter": {"scans": 0}}"#, status: .unprocessableContent, code: "invalid_field", field: "stopAfter.scans"),
        Case(method: .patch, path: "/v1/scanners/default/switch", body: #"{"stopAfter": {}}"#, status: .unprocessableContent, code: "invalid_field", field: "stopAfter"),
        Case(method: .patch, path: "/v1/scanners/default/switch", body: #"{"mode": "party"}"#, status: .unprocessableContent, code: "invalid_field", field: "mode"),
        Case(method: .patch, path: "/v1/scanners/default/switch", body: #"{"storeData": false}"#, status: .unprocessableContent, code: "invalid_field", field: "storeData"),
        Case(method: .get, path: "/v1/floors/999", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/floors/abc", status: .notFound, code: "not_found"),
        Case(method: .delete, path: "/v1/floors/999", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/rooms/999", status: .notFound, code: "not_found"),
        Case(method: .delete, path: "/v1/rooms/999", status: .notFound, code: "not_found"),
        Case(method: .post, path: "/v1/rooms/999/clear", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/rooms?floor=999", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/locations/999", status: .notFound, code: "not_found"),
        Case(method: .delete, path: "/v1/locations/999", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/locations?room=999", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/scanners/nobody", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/scanners/bad%20id/switch", status: .notFound, code: "not_found"),
        Case(method: .get, path: "/v1/measurements?cursor=bm90LWEtY3Vyc29y", status: .unprocessableContent, code: "invalid_field", field: "cursor"),
        Case(method: .get, path: "/v1/measurements?limit=0", status: .unprocessableContent, code: "invalid_field", field: "limit"),
        Case(method: .get, path: "/v1/measurements?limit=1001", status: .unprocessableContent, code: "invalid_field", field: "limit"),
        Case(method: .get, path: "/v1/measurements?kind=radio", status: .unprocessableContent, code: "invalid_field", field: "kind"),
        Case(method: .get, path: "/v1/measurements?since=yesterday", status: .unprocessableContent, code: "invalid_field", field: "since"),
        Case(method: .get, path: "/v1/measurements?location=x", status: .unprocessableContent, code: "invalid_field", field: "location"),
        Case(method: .get, path: "/v1/measurements/stream?after=-3", status: .unprocessableContent, code: "invalid_field", field: "after"),
        // `null` where the contract allows only a value (or leaving the field out) is refused, not
        // taken for "left out".
        Case(method: .patch, path: "/v1/scanners/default/switch", body: #"{"scanning": null}"#, status: .unprocessableContent, code: "invalid_field", field: "scanning"),
        Case(method: .patch, path: "/v1/scanners/default/switch", body: #"{"expectedRevision": null, "scanning": false}"#, status: .unprocessableContent, code: "invalid_field", field: "expectedRevision"),
        Case(method: .patch, path: "/v1/floors/1", body: #"{"name": null}"#, status: .unprocessableContent, code: "invalid_field", field: "name"),
        Case(method: .patch, path: "/v1/tags/1", body: #"{"identity": null}"#, status: .unprocessableContent, code: "invalid_field", field: "identity"),
        Case(method: .patch, path: "/v1/tags/1", body: #"{"name": "T", "txPower": null}"#, status: .unprocessableContent, code: "invalid_field", field: "txPower"),
        Case(method: .patch, path: "/scanSwitch/1", body: #"{"shouldScan": false, "storeData": null}"#, status: .unprocessableContent, code: "invalid_field", field: "storeData"),
        Case(
            method: .put, path: "/v1/scanners/default/counters",
            body: #"{"run": "6F9619FF-8B86-D011-B42D-00C04FC964FF", "advertisements": 1, "wifiScans": 1, "parseErrors": 0, "radioRecoveries": 0, "uploadRetries": 0, "droppedReadings": null, "spoolDepth": 0}"#,
            status: .unprocessableContent, code: "invalid_field", field: "droppedReadings"
        ),
    ]

    /// Sends the case's request and checks the error answer, and that `state` reads the same
    /// after it as before.
    static func expectRefused<State: Equatable>(
        _ badCase: Case, by client: some TestClientProtocol, leaving state: () async throws -> State
    ) async throws {
        let before = try await state()
        let response = try await client.execute(
            uri: badCase.path, method: badCase.method, headers: [.contentType: "application/json"],
            body: badCase.body.map { ByteBuffer(string: $0) }
        )
        #expect(response.status == badCase.status, "\(String(buffer: response.body))")
        let error = try errorBody(response)
        #expect(error.code == badCase.code)
        #expect(error.field == badCase.field, "\(error.message)")
        #expect(!error.message.isEmpty)
        #expect(try await state() == before)
    }

    @Test(arguments: cases)
    func isRefusedAndChangesNothing(_ badCase: Case) async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            #expect(on.revision == 2)
            _ = try await client.uploadNew(Readings.batch([Readings.wifi()], revision: on.revision))
            try await Self.expectRefused(badCase, by: client, leaving: { try await StoredCounts(database) })
        }
    }

    @Test func bodyOverTheLimitIs413() async throws {
        let database = try AppDatabase.inMemory()
        let limit = 2048
        try await makeApp(database, maxBodyBytes: limit).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            let before = try await StoredCounts(database)
            let big = Readings.batch((0..<40).map { Readings.wifi(scan: $0) }, revision: on.revision)
            #expect(try jsonBody(big).readableBytes > limit)

            let response = try await client.upload(big)
            #expect(response.status == .contentTooLarge)
            #expect(try errorBody(response).code == "body_too_large")
            #expect(try await StoredCounts(database) == before)

            let small = Readings.batch([Readings.wifi()], revision: on.revision)
            #expect(try await client.upload(small).status == .created, "a body within the limit is still taken")
        }
    }

    @Test func defaultLimitRefusesFiveMebibytes() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let before = try await StoredCounts(database)
            let response = try await client.send(.post, "/v1/measurements", text: String(repeating: " ", count: 5 * 1024 * 1024))
            #expect(response.status == .contentTooLarge)
            #expect(try await StoredCounts(database) == before)
        }
    }
}
