import Foundation
import Scan

/// A ``Measurement`` as one line of JSON, written by hand because the spool writes hundreds a
/// second and `JSONEncoder` would be most of scannerd's work. The text is what
/// `JSONCoding.encoder()` writes (keys sorted, times in UTC with milliseconds; tests hold the two
/// to the same bytes), except that a time of whole milliseconds keeps its last millisecond where
/// Foundation's formatter may truncate its binary fraction to the millisecond before.
enum MeasurementLine {
    static func encode(_ measurement: Measurement) -> Data {
        var json = JSONBytes()
        // Keys in the order `.sortedKeys` gives them.
        switch measurement.observation {
        case .wifi(let wifi):
            json.key("bssid")
            json.mac(wifi.bssid)
            json.key("frequencyMHz")
            json.integer(wifi.frequencyMHz)
            json.key("id")
            json.uuid(measurement.id)
            json.key("kind")
            json.string(RadioKind.wifi.rawValue)
            json.key("rssi")
            json.integer(measurement.rssi)
            json.key("scan")
            json.integer(measurement.scan)
            json.key("ssid")
            json.string(wifi.ssid)
            json.key("time")
            json.string(formatTime(measurement.time))
        case .ble(let ble):
            json.key("address")
            json.mac(ble.address)
            json.key("id")
            json.uuid(measurement.id)
            json.key("kind")
            json.string(RadioKind.ble.rawValue)
            json.key("major")
            json.integer(Int(ble.beacon.major))
            json.key("minor")
            json.integer(Int(ble.beacon.minor))
            json.key("rssi")
            json.integer(measurement.rssi)
            json.key("scan")
            json.integer(measurement.scan)
            json.key("time")
            json.string(formatTime(measurement.time))
            json.key("txPower")
            json.integer(ble.txPower)
            json.key("uuid")
            json.uuid(ble.beacon.uuid)
        }
        return json.finish()
    }

    /// JSON string escaping as `JSONEncoder` does it with `.withoutEscapingSlashes`: quote,
    /// backslash and control characters escaped, everything else as UTF-8.
    static func appendJSONString(_ value: String, to text: inout String) {
        var json = JSONBytes(opening: false)
        json.string(value)
        text += String(decoding: json.bytes, as: UTF8.self)
    }

    private static let millisecondsPerDay: Int64 = 86_400_000
    /// 2001-01-01, where `Date` counts from, in milliseconds since 1970.
    private static let referenceDateMilliseconds: Int64 = 978_307_200_000
    /// A microsecond, in milliseconds: absorbs the binary representation error of times that are
    /// whole milliseconds, which would otherwise truncate to the millisecond before.
    private static let representationSlack = 0.001

    /// `2026-11-22T06:50:00.123Z`: UTC, truncated to the millisecond.
    static func formatTime(_ date: Date) -> String {
        let sinceReference = (date.timeIntervalSinceReferenceDate * 1000 + representationSlack).rounded(.down)
        let milliseconds = Int64(sinceReference) + referenceDateMilliseconds
        let days = milliseconds >= 0 ? milliseconds / millisecondsPerDay : (milliseconds - millisecondsPerDay + 1) / millisecondsPerDay
        let ofDay = milliseconds - days * millisecondsPerDay
        let (year, month, day) = civilDate(daysSince1970: days)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(ofDay / 3_600_000, 2) + ":" + pad(ofDay / 60_000 % 60, 2) + ":" + pad(ofDay / 1000 % 60, 2)
            + "." + pad(ofDay % 1000, 3) + "Z"
    }

    /// Year, month, day of the proleptic Gregorian calendar (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// One JSON object's bytes, written field by field.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    /// Room for the longest measurement line without growing.
    static let typicalCapacity = 320
    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    init(opening: Bool = true) {
        bytes.reserveCapacity(Self.typicalCapacity)
        if opening { bytes.append(UInt8(ascii: "{")) }
    }

    mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `"aa:bb:cc:dd:ee:ff"`, as ``MACAddress/description`` writes it.
    mutating func mac(_ address: MACAddress) {
        bytes.append(UInt8(ascii: "\""))
        for index in 0..<6 {
            if index > 0 { bytes.append(UInt8(ascii: ":")) }
            let octet = UInt8(truncatingIfNeeded: address.rawValue >> (40 - 8 * UInt64(index)))
            bytes.append(Self.hexDigits[Int(octet >> 4)])
            bytes.append(Self.hexDigits[Int(octet & 0x0F)])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`, as `UUID.uuidString` writes it.
    mutating func uuid(_ value: UUID) {
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: value.uuid) { octets in
            for (index, octet) in octets.enumerated() {
                if [4, 6, 8, 10].contains(index) { bytes.append(UInt8(ascii: "-")) }
                bytes.append(Self.upperHexDigits[Int(octet >> 4)])
                bytes.append(Self.upperHexDigits[Int(octet & 0x0F)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func finish() -> Data {
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }
}
