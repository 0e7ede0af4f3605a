import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// An upload is decoded in one pass when written plainly and by `JSONDecoder` otherwise
/// (`Request.decodeBatch`): both store the same readings.
@Suite struct IngestDecodingPathTests {
    static func body(revision: Int, ssid: String, extra: String = "") -> String {
        #"""
        {"batchID": "\#(UUID().uuidString)", "scannerID": "default", "switchRevision": \#(revision)\#(extra), "measurements": [
            {"id": "\#(UUID().uuidString)", "time": "2026-01-01T00:00:00.000Z", "rssi": -50, "bssid": "aa:bb:cc:dd:ee:ff", "frequencyMHz": 2412, "ssid": "\#(ssid)"},
            {"time": "2026-01-01T00:00:01.000Z", "rssi": -70, "address": "c0:ff:ee:00:00:01", "uuid": "f7826da6-4fa2-4e98-8024-bc5b71e0893e", "major": 1, "minor": 2, "txPower": -59}
        ]}
        """#
    }

    @Test(arguments: [
        (#"läb"#, ""),
        // An escape and a key the contract does not have: left to the decoder, which takes both.
        (#"l\u00e4b"#, #", "note": {"from": "a proxy"}"#),
    ])
    func plainAndOtherwiseWrittenBatchesStoreTheSameReadings(ssid: String, extra: String) async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            let response = try await client.execute(
                uri: "/v1/measurements", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: Self.body(revision: on.revision, ssid: ssid, extra: extra))
            )
            #expect(response.status == .created, "\(String(buffer: response.body))")
            let page = try await client.expect(.ok, get: "/v1/measurements", as: Page<StoredMeasurement>.self)
            #expect(page.items.count == 2)
            guard page.items.count == 2, case .wifi(let wifi) = page.items[0].measurement.observation,
                  case .ble(let ble) = page.items[1].measurement.observation else {
                Issue.record("not the readings sent: \(page.items)")
                return
            }
            #expect(wifi.ssid == "läb")
            #expect(wifi.bssid == BSSID(rawValue: 0xAA_BB_CC_DD_EE_FF))
            #expect(ble.beacon == BeaconID(uuid: Readings.beaconUUID, major: 1, minor: 2))
            #expect(page.items[1].measurement.time == Date(timeIntervalSince1970: 1_767_225_601))
        }
    }
}
