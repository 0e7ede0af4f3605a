/// An IEEE 802 EUI-48 address, written `aa:bb:cc:dd:ee:ff`: a Wi-Fi access point's BSSID or a
/// Bluetooth device address.
///
/// Parsing accepts upper or lower case with `:` or `-` separators and always formats lower case
/// with `:`, so the same radio always has the same text.
public struct MACAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The six octets, most significant first, in the low 48 bits.
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue & 0xFFFF_FFFF_FFFF
    }

    public init(octets: [UInt8]) throws(FieldError) {
        guard octets.count == 6 else {
            throw FieldError("must be 6 octets, got \(octets.count)")
        }
        self.init(rawValue: octets.reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// Parses `aa:bb:cc:dd:ee:ff` (or with `-`). Throws when the text is not six hex octets.
    public init(_ text: String) throws(FieldError) {
        let parts = text.split(separator: text.utf8.contains(UInt8(ascii: "-")) ? "-" : ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else {
            throw FieldError("must be six hex octets like aa:bb:cc:dd:ee:ff, got \"\(text)\"")
        }
        var value: UInt64 = 0
        for part in parts {
            guard part.count == 2, let octet = UInt8(part, radix: 16) else {
                throw FieldError("must be six hex octets like aa:bb:cc:dd:ee:ff, got \"\(text)\"")
            }
            value = value << 8 | UInt64(octet)
        }
        self.init(rawValue: value)
    }

    public var octets: [UInt8] {
        (0..<6).map { UInt8(truncatingIfNeeded: rawValue >> (40 - 8 * UInt64($0))) }
    }

    public var description: String {
        octets.map { hexByte($0) }.joined(separator: ":")
    }

    public static func < (lhs: MACAddress, rhs: MACAddress) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension MACAddress: TextCodable {}

func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

/// A Wi-Fi access point's MAC address.
public typealias BSSID = MACAddress
/// A Bluetooth LE device address (as the controller reports it; random addresses change).
public typealias BLEAddress = MACAddress
