#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// A ``Measurement`` as one line of JSON, written straight to bytes because the spool writes
/// hundreds a second and `JSONEncoder` would be most of scannerd's work. The fields come from the
/// contract's one list of them (``Measurement/forEachField(_:)``), which `Codable` writes too; the
/// text is what `JSONCoding.encoder()` writes (keys sorted, times in UTC with milliseconds; tests
/// hold the two to the same bytes).
enum MeasurementLine {
    /// ``Measurement/forEachField(_:)``'s fields as bytes, in its order.
    static func encode(_ measurement: Measurement) -> Data {
        var bytes: [UInt8] = []
        encode(measurement, into: &bytes)
        return Data(bytes)
    }

    /// ``encode(_:)``, appending the line to `bytes` (no newline) rather than making a buffer of its own.
    static func encode(_ measurement: Measurement, into bytes: inout [UInt8]) {
        var json = JSONBytes(continuing: &bytes)
        measurement.forEachField { key, value in
            json.key(key.rawValue)
            switch value {
            case .integer(let number): json.integer(number)
            case .string(let text): json.string(text)
            case .mac(let address): json.mac(address)
            case .uuid(let uuid): json.uuid(uuid)
            case .time(let date): json.time(date)
            }
        }
        bytes = json.finish()
    }

    /// JSON string escaping as `JSONEncoder` does it with `.withoutEscapingSlashes`: quote,
    /// backslash and control characters escaped, everything else as UTF-8.
    static func appendJSONString(_ value: String, to text: inout String) {
        var json = JSONBytes(opening: false)
        json.string(value)
        text += String(decoding: json.bytes, as: UTF8.self)
    }

    /// The `time` field's text: `JSONCoding`'s own.
    static func formatTime(_ date: Date) -> String {
        JSONCoding.formatDate(date)
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

    /// An object written after what `buffer` holds; `buffer` is moved in (left empty) and
    /// ``finish()`` gives it back with the object at its end, so nothing is copied.
    init(continuing buffer: inout [UInt8]) {
        swap(&bytes, &buffer)
        bytes.append(UInt8(ascii: "{"))
    }

    mutating func key(_ name: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    /// Decimal digits written straight into the bytes, as `String(value)` spells them.
    mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        let first = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[first...].reverse()
    }

    /// `"2026-11-22T06:50:00.123Z"`, as ``MeasurementLine/formatTime(_:)`` writes it.
    mutating func time(_ date: Date) {
        bytes.append(UInt8(ascii: "\""))
        JSONCoding.appendFormattedDate(date, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
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
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(Self.upperHexDigits[Int(octet >> 4)])
                bytes.append(Self.upperHexDigits[Int(octet & 0x0F)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The bytes with the object closed, moved out (this is left empty).
    mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        var finished: [UInt8] = []
        swap(&finished, &bytes)
        return finished
    }
}
