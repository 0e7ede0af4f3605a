#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One field of a measurement's v1 JSON, as ``Measurement/forEachField(_:)`` lists them.
public enum MeasurementField: Sendable, Equatable {
    case integer(Int)
    case string(String)
    /// `"aa:bb:cc:dd:ee:ff"`
    case mac(MACAddress)
    /// `"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"` (upper case, as `UUID.uuidString`)
    case uuid(UUID)
    /// RFC 3339 UTC with milliseconds (``JSONCoding/formatDate(_:)``)
    case time(Date)

    /// The field names of a measurement's JSON.
    public enum Key: String, CodingKey, Sendable, CaseIterable {
        case id, kind, time, rssi, scan
        case bssid, ssid, frequencyMHz
        case address, uuid, major, minor, txPower
    }
}

extension Measurement {
    /// Calls `body` with every field of this measurement's v1 JSON, in the order of their names
    /// (the order `.sortedKeys` writes). This list is the one definition of what a measurement's
    /// JSON holds: `Codable`'s ``encode(to:)`` writes it, and so does scannerd's spool, byte by
    /// byte, on its hot path.
    public func forEachField(_ body: (MeasurementField.Key, MeasurementField) throws -> Void) rethrows {
        switch observation {
        case .wifi(let wifi):
            try body(.bssid, .mac(wifi.bssid))
            try body(.frequencyMHz, .integer(wifi.frequencyMHz))
            try body(.id, .uuid(id))
            try body(.kind, .string(RadioKind.wifi.rawValue))
            try body(.rssi, .integer(rssi))
            try body(.scan, .integer(scan))
            try body(.ssid, .string(wifi.ssid))
            try body(.time, .time(time))
        case .ble(let ble):
            try body(.address, .mac(ble.address))
            try body(.id, .uuid(id))
            try body(.kind, .string(RadioKind.ble.rawValue))
            try body(.major, .integer(Int(ble.beacon.major)))
            try body(.minor, .integer(Int(ble.beacon.minor)))
            try body(.rssi, .integer(rssi))
            try body(.scan, .integer(scan))
            try body(.time, .time(time))
            try body(.txPower, .integer(ble.txPower))
            try body(.uuid, .uuid(ble.beacon.uuid))
        }
    }
}
