import Foundation
@testable import ScanContract
import Testing

/// ``Measurement/forEachField(_:)`` is the one list of a measurement's JSON fields: in name order
/// (what scannerd's spool relies on to write `.sortedKeys` text), and exactly the fields the
/// Codable encoding writes for each kind.
@Suite("Measurement fields: the one list both encoders write")
struct MeasurementFieldTests {
    let wifi = Measurement(
        id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, time: Date(timeIntervalSince1970: 1_795_330_200.125),
        rssi: -61, scan: 3, observation: .wifi(WiFiObservation(bssid: try! BSSID("aa:bb:cc:dd:ee:0f"), ssid: "lab \"1\"", frequencyMHz: 2437))
    )
    let ble = Measurement(
        id: UUID(uuidString: "0A2E1F8C-0000-495A-93FC-0C247A3E6E5F")!, time: Date(timeIntervalSince1970: 1_795_330_200),
        rssi: -70, scan: 1,
        observation: .ble(BLEObservation(
            address: try! BLEAddress("c0:ff:ee:00:00:01"),
            beacon: BeaconID(uuid: UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!, major: 1, minor: 65535),
            txPower: -59
        ))
    )

    private func names(_ measurement: Measurement) -> [String] {
        var names: [String] = []
        measurement.forEachField { key, _ in names.append(key.rawValue) }
        return names
    }

    @Test func fieldsComeInNameOrder() {
        for measurement in [wifi, ble] {
            #expect(names(measurement) == names(measurement).sorted())
        }
    }

    @Test func theCodableEncodingWritesExactlyTheListedFields() throws {
        for measurement in [wifi, ble] {
            let object = try JSONSerialization.jsonObject(with: JSONCoding.encoder().encode(measurement)) as? [String: Any]
            #expect(object.map { Set($0.keys) } == Set(names(measurement)))
        }
    }

    @Test func theListedValuesAreTheMeasurements() {
        var fields: [MeasurementField.Key: MeasurementField] = [:]
        ble.forEachField { key, value in fields[key] = value }
        #expect(fields[.major] == .integer(1))
        #expect(fields[.minor] == .integer(65535))
        #expect(fields[.uuid] == .uuid(UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!))
        #expect(fields[.kind] == .string("ble"))
        #expect(fields[.time] == .time(Date(timeIntervalSince1970: 1_795_330_200)))
    }
}
