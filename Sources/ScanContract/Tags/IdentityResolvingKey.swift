#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A phone's or watch's Identity Resolving Key (Bluetooth Core Vol 3 Part H §2.4.2.1): 16 bytes
/// that resolve the device's rotating private addresses. A secret: its `description` never shows
/// the bytes, it is never encoded into a ``TagIdentity``'s JSON, and only switchd's store (sealed)
/// and a listening scanner's switch answer (``WatchedKey``) carry it.
public struct IdentityResolvingKey: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key most significant byte first, as the Core specification writes `k` (its sample
    /// `0xec0234a3…9b`) and as it is given to AES-128.
    public let bytes: [UInt8]

    /// The order the bytes of a key are written in.
    public enum ByteOrder: String, Codable, Sendable, CaseIterable {
        /// Most significant byte first: the Core specification, ESPresense's `irk:` hex and Home
        /// Assistant's Private BLE Device when given hex.
        case msbFirst = "msb-first"
        /// Least significant byte first, as the key goes over the air: BlueZ's
        /// `/var/lib/bluetooth/*/*/info` (`[IdentityResolvingKey] Key=`), and the base64 of the
        /// macOS keychain's "Remote IRK" that Home Assistant's Private BLE Device takes.
        case lsbFirst = "lsb-first"
    }

    /// - Precondition: `bytes` holds 16 bytes, most significant first.
    public init(bytes: [UInt8]) {
        precondition(bytes.count == 16, "an IRK has 16 bytes")
        self.bytes = bytes
    }

    /// Reads a key written as 32 hex digits (an `irk:` or `0x` prefix, and `:`, `-` or spaces
    /// between bytes, allowed) or as base64 of 16 bytes. `order` nil takes hex as most significant
    /// byte first and base64 as least significant first (Home Assistant's two forms).
    ///
    /// - Throws: ``FieldError`` saying what is wrong (length, digits), never echoing the text.
    public init(parsing text: String, order: ByteOrder? = nil) throws(FieldError) {
        var body = Substring(text).drop(while: \.isWhitespace)
        while body.last?.isWhitespace == true { body = body.dropLast() }
        for prefix in ["irk:", "0x", "0X"] where body.hasPrefix(prefix) { body = body.dropFirst(prefix.count) }
        let separators: Set<Character> = [":", "-", " "]
        let digits = body.filter { !separators.contains($0) }
        var bytes: [UInt8]
        let defaultOrder: ByteOrder
        // Base64 of 16 bytes ends in "==", so text of hex digits only is hex.
        // ASCII digits only: `Character.isHexDigit` also takes fullwidth forms (U+FF10…), which
        // `UInt8(_:radix:)` does not read.
        let hexValues = digits.map { $0.asciiValue.flatMap(Self.hexValue) }
        if !digits.isEmpty, hexValues.allSatisfy({ $0 != nil }) {
            guard digits.count == 32 else {
                throw FieldError("must be 16 bytes: 32 hex digits or base64, got \(digits.count) hex digits")
            }
            let nibbles = hexValues.compactMap { $0 }
            bytes = stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
            defaultOrder = .msbFirst
        } else if digits.count == 32 {
            throw FieldError("has 32 characters but not all are hex digits (0-9, a-f)")
        } else if let decoded = Data(base64Encoded: String(body)) {
            guard decoded.count == 16 else { throw FieldError("must be 16 bytes: 32 hex digits or base64, got base64 of \(decoded.count) bytes") }
            bytes = Array(decoded)
            defaultOrder = .lsbFirst
        } else {
            throw FieldError("must be 16 bytes as 32 hex digits or base64; the text is neither")
        }
        if (order ?? defaultOrder) == .lsbFirst { bytes.reverse() }
        self.init(bytes: bytes)
    }

    /// The value of an ASCII hex digit, or nil.
    private static func hexValue(_ ascii: UInt8) -> UInt8? {
        switch ascii {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): ascii - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): ascii - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): ascii - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// 32 lower-case hex digits, most significant byte first: how the key travels to a listening
    /// scanner. Nowhere else.
    public var hex: String { bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    /// Never the key.
    public var description: String { "IdentityResolvingKey(hidden)" }
    public var debugDescription: String { description }
    /// No children: `dump()` and reflection show nothing of the key either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// An identity of kind `irk`: a device with a rotating private address, named in public only by
/// ``fingerprint``. Two are the same when their fingerprints are; ``key`` is carried only where
/// the key was just read from a request (switchd, before sealing) or from a listening scanner's
/// switch answer (scannerd), and is never encoded with the identity.
public struct IRKIdentity: Hashable, Sendable {
    /// 16 hex digits derived one way from the key (switchd's ``IRKIdentity`` sealing); empty until
    /// switchd has derived it.
    public var fingerprint: String
    public var key: IdentityResolvingKey?

    /// How many bytes a fingerprint has (16 hex digits).
    public static let fingerprintBytes = 8

    public init(fingerprint: String, key: IdentityResolvingKey? = nil) {
        self.fingerprint = fingerprint
        self.key = key
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.fingerprint == rhs.fingerprint }
    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }
}

/// A watched `irk` tag's key, in a listening scanner's switch answer (``ScanSwitch/watchedKeys``):
/// the only place a key leaves switchd.
public struct WatchedKey: Codable, Hashable, Sendable {
    public var fingerprint: String
    /// 32 hex digits, most significant byte first.
    public var key: String

    public init(fingerprint: String, key: IdentityResolvingKey) {
        self.fingerprint = fingerprint
        self.key = key.hex
    }
}
