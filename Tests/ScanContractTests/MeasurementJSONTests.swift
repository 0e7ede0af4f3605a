import Foundation
@testable import ScanContract
import Testing

@Suite("Measurement JSON contract")
struct MeasurementJSONTests {
    let decoder = JSONCoding.decoder()
    let encoder = JSONCoding.encoder()

    @Test func decodesTheIssuesWiFiShapeWithoutKind() throws {
        let json = #"{"bssid":"AA:BB:CC:DD:EE:0F","ssid":"lab","frequencyMHz":2437,"rssi":-61,"time":"2026-11-22T06:50:00.125Z"}"#
        let m = try decoder.decode(Measurement.self, from: Data(json.utf8))
        #expect(m.kind == .wifi)
        #expect(m.rssi == -61)
        #expect(m.scan == 0)
        guard case .wifi(let wifi) = m.observation else { Issue.record("not wifi"); return }
        #expect(wifi.bssid.description == "aa:bb:cc:dd:ee:0f")
        #expect(wifi.frequencyMHz == 2437)
        #expect(abs(m.time.timeIntervalSince1970 - 1_795_330_200.125) < 0.0005)
    }

    @Test func decodesTheIssuesBLEShape() throws {
        let json = #"{"address":"c0:ff:ee:00:00:01","uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E","major":1,"minor":65535,"txPower":-59,"rssi":-70,"time":"2026-11-22T06:50:00Z"}"#
        let m = try decoder.decode(Measurement.self, from: Data(json.utf8))
        guard case .ble(let ble) = m.observation else { Issue.record("not ble"); return }
        #expect(ble.beacon.minor == 65535)
        #expect(ble.txPower == -59)
    }

    @Test func roundTripsBothKindsExactly() throws {
        let time = Date(timeIntervalSince1970: 1_795_330_200.5)
        let originals = [
            Measurement(time: time, rssi: -40, scan: 3, observation: .wifi(.init(bssid: try BSSID("02:00:00:00:01:00"), ssid: "ü-net", frequencyMHz: 5180))),
            Measurement(time: time, rssi: -90, scan: 0, observation: .ble(.init(address: BLEAddress(rawValue: 0xC0FFEE000001), beacon: BeaconID(uuid: UUID(), major: 7, minor: 9), txPower: -59))),
        ]
        let data = try encoder.encode(originals)
        #expect(try decoder.decode([Measurement].self, from: data) == originals)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""kind":"wifi""#))
        #expect(text.contains(#""time":"2026-11-22T06:50:00.500Z""#))
    }

    @Test func missingKindAndNoHintNamesKind() {
        let json = #"{"rssi":-50,"time":"2026-11-22T06:50:00Z"}"#
        #expect {
            try decoder.decode(Measurement.self, from: Data(json.utf8))
        } throws: { error in
            (error as? DecodingError)?.fieldPath == "kind"
        }
    }

    @Test(arguments: [
        (#"{"batchID":"6F9619FF-8B86-D011-B42D-00C04FC964FF","scannerID":"pi-1","switchRevision":2,"measurements":[{"kind":"wifi","bssid":"zz:00:00:00:00:00","frequencyMHz":2412,"rssi":-50,"time":"2026-11-22T06:50:00Z"}]}"#, "measurements[0].bssid"),
        (#"{"batchID":"6F9619FF-8B86-D011-B42D-00C04FC964FF","scannerID":"pi-1","switchRevision":2,"measurements":[{"kind":"wifi","bssid":"00:00:00:00:00:00","frequencyMHz":2412,"rssi":"loud","time":"2026-11-22T06:50:00Z"}]}"#, "measurements[0].rssi"),
        (#"{"batchID":"6F9619FF-8B86-D011-B42D-00C04FC964FF","scannerID":"pi 1","switchRevision":2,"measurements":[]}"#, "scannerID"),
        (#"{"batchID":"nope","scannerID":"pi-1","switchRevision":2,"measurements":[]}"#, "batchID"),
        (#"{"batchID":"6F9619FF-8B86-D011-B42D-00C04FC964FF","scannerID":"pi-1","measurements":[]}"#, "switchRevision"),
        (#"{"batchID":"6F9619FF-8B86-D011-B42D-00C04FC964FF","scannerID":"pi-1","switchRevision":2,"measurements":[{"kind":"ble","address":"00:00:00:00:00:01","uuid":"F7826DA6-4FA2-4E98-8024-BC5B71E0893E","major":70000,"minor":1,"txPower":-59,"rssi":-50,"time":"2026-11-22T06:50:00Z"}]}"#, "measurements[0].major"),
        (#"{"batchID":"6F9619FF-8B86-D011-B42D-00C04FC964FF","scannerID":"pi-1","switchRevision":2,"measurements":[{"kind":"wifi","bssid":"00:00:00:00:00:01","frequencyMHz":2412,"rssi":-50,"time":"yesterday"}]}"#, "measurements[0].time"),
    ])
    func wrongTypesNameTheField(json: String, field: String) {
        #expect {
            try decoder.decode(MeasurementBatch.self, from: Data(json.utf8))
        } throws: { error in
            guard let error = error as? DecodingError else { return false }
            return error.fieldPath == field && !error.isMalformedJSON
        }
    }

    @Test(arguments: ["{", "not json", #"{"batchID": }"#, ""])
    func malformedJSONIsToldApartFromWrongShapes(text: String) {
        #expect {
            try decoder.decode(MeasurementBatch.self, from: Data(text.utf8))
        } throws: { error in
            (error as? DecodingError)?.isMalformedJSON == true
        }
    }
}
