/// An IEEE EUI-48 as a frame carries it: a Bluetooth device address or a Wi-Fi BSSID, the six
/// octets most significant first in the low 48 bits, written `aa:bb:cc:dd:ee:ff`.
///
/// RadioWire depends on nothing, so this is its own wire value; scannerd turns it into the
/// contract's `MACAddress` with `MACAddress(rawValue:)`.
public struct EUI48: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(rawValue: UInt64) {
        self.rawValue = rawValue & 0xFFFF_FFFF_FFFF
    }

    public var description: String {
        (0..<6).map { hexByte(UInt8(truncatingIfNeeded: rawValue >> (40 - 8 * UInt64($0)))) }.joined(separator: ":")
    }
}

/// Two lower-case hex digits, for addresses and for the codes named in error messages.
func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
