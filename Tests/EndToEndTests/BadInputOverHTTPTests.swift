import Foundation
import Harness
import ScanContract
import Testing

/// Hostile and careless requests against a real switchd over a real socket: each gets its precise
/// error, the process keeps serving, and what was stored stays as it was.
@Suite("End to end: bad input over HTTP", .serialized)
struct BadInputOverHTTPTests {
    @Test func badRequestsChangeNothing() async throws {
        let folder = try TemporaryFolder("badinput")
        defer { folder.remove() }
        let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--max-body-bytes", "65536"])
        defer { switchd.process.signal(SIGKILL) }
        let api = switchd.adminClient()
        let floor = try await api.createFloor("F")
        let room = try await api.createRoom("R", floor: floor)
        let spot = try await api.createLocation(in: room, x: 1, y: 1)
        let on = try await api.patchSwitch(SwitchPatch(scanning: true, mode: .survey, locationID: .set(spot.id)))
        let good = MeasurementBatch(batchID: UUID(), scannerID: .default, switchRevision: on.revision, measurements: [
            Measurement(time: Date(), rssi: -60, observation: .wifi(.init(bssid: BSSID(rawValue: 0x0200_0000_0100), ssid: "lab", frequencyMHz: 2412))),
        ])
        #expect(try await api.send("POST", "/v1/measurements", json: good).status == 201)
        let snapshot = try await api.allMeasurements()

        func expectError(_ response: APIClient.Response, _ status: Int, _ code: String, field: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
            #expect(response.error?.code == code, "\(response.text)", sourceLocation: sourceLocation)
            if let field { #expect(response.error?.field == field, "\(response.text)", sourceLocation: sourceLocation) }
            #expect(response.error?.message.isEmpty == false, sourceLocation: sourceLocation)
        }

        expectError(try await api.send("POST", "/v1/measurements", body: Data("{\"batchID\": ".utf8)), 400, "malformed_json")
        var wrongType = try JSONSerialization.jsonObject(with: JSONCoding.encoder().encode(good)) as! [String: Any]
        wrongType["switchRevision"] = "two"
        expectError(try await api.send("POST", "/v1/measurements", body: JSONSerialization.data(withJSONObject: wrongType)), 422, "invalid_field", field: "switchRevision")
        var outOfRange = good
        outOfRange.batchID = UUID()
        outOfRange.measurements[0].rssi = 40
        expectError(try await api.send("POST", "/v1/measurements", json: outOfRange), 422, "invalid_field", field: "measurements[0].rssi")
        let huge = Data(repeating: UInt8(ascii: " "), count: 200_000) + Data("{}".utf8)
        expectError(try await api.send("POST", "/v1/measurements", body: huge), 413, "body_too_large")
        var stranger = good
        stranger.batchID = UUID()
        stranger.scannerID = try ScannerID("nobody")
        expectError(try await api.send("POST", "/v1/measurements", json: stranger), 404, "not_found")
        expectError(try await api.send("GET", "/v1/locations/999999"), 404, "not_found")
        expectError(try await api.send("PATCH", "/v1/scanners/nobody/switch", json: SwitchPatch(scanning: false)), 404, "not_found")
        expectError(try await api.send("PATCH", "/v1/scanners/default/switch", json: SwitchPatch(locationID: .set(999_999))), 422, "invalid_field", field: "locationID")
        expectError(try await api.send("GET", "/v1/measurements?cursor=garbage"), 422, "invalid_field", field: "cursor")

        let replay = try await api.send("POST", "/v1/measurements", json: good)
        #expect(replay.status == 200)
        #expect(try replay.decode(BatchReceipt.self).duplicate)

        let after = try await api.allMeasurements()
        #expect(after == snapshot, "bad requests changed nothing stored")
        #expect(try await api.send("GET", "/healthz").status == 200)
    }
}
