#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a tag advertises that names it: an iBeacon's UUID/major/minor, an Eddystone-UID's
/// namespace and instance, an AltBeacon's 20-byte beacon ID, or (for anything else) its device
/// address, or (for a phone or watch with a rotating private address) its Identity Resolving Key.
/// In JSON a flat object with `kind` (`ibeacon`, `eddystone-uid`, `altbeacon`, `address`, `irk`)
/// and that kind's fields; hex is lower case. An `irk` identity is written as its `fingerprint`
/// only: its `key` is read (with `keyByteOrder`) but never written.
public enum TagIdentity: Hashable, Sendable {
    case iBeacon(BeaconID)
    /// Eddystone-UID: a 10-byte namespace and a 6-byte instance, as 20 and 12 hex digits.
    case eddystoneUID(namespace: String, instance: String)
    /// AltBeacon: the 20-byte beacon ID as 40 hex digits.
    case altBeacon(String)
    case address(MACAddress)
    /// A device resolved by its Identity Resolving Key; keyed and shown by the key's fingerprint.
    case irk(IRKIdentity)

    /// One text per identity, the same for the same identity: `ibeacon:<uuid>/<major>/<minor>`,
    /// `eddystone-uid:<namespace>/<instance>`, `altbeacon:<id>`, `address:<aa:bb:…>`. The store
    /// keys tags by it.
    public var key: String {
        switch self {
        case .iBeacon(let id): "ibeacon:\(id)"
        case .eddystoneUID(let namespace, let instance): "eddystone-uid:\(namespace)/\(instance)"
        case .altBeacon(let id): "altbeacon:\(id)"
        case .address(let address): "address:\(address)"
        case .irk(let identity): "irk:\(identity.fingerprint)"
        }
    }

    /// Reads a ``key`` back.
    ///
    /// - Throws: ``FieldError`` when the text is not a key this type writes.
    public init(key: String) throws(FieldError) {
        guard let colon = key.firstIndex(of: ":") else { throw FieldError("is not a tag identity key: \"\(key)\"") }
        let kind = String(key[..<colon]), rest = String(key[key.index(after: colon)...])
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (kind, parts.count) {
        case ("ibeacon", 3):
            guard let uuid = UUID(uuidString: parts[0]), let major = UInt16(parts[1]), let minor = UInt16(parts[2]) else {
                throw FieldError("is not an iBeacon identity key: \"\(key)\"")
            }
            self = .iBeacon(BeaconID(uuid: uuid, major: major, minor: minor))
        case ("eddystone-uid", 2):
            self = .eddystoneUID(namespace: try Self.hex(parts[0], bytes: 10), instance: try Self.hex(parts[1], bytes: 6))
        case ("altbeacon", 1):
            self = .altBeacon(try Self.hex(rest, bytes: 20))
        case ("address", _):
            self = .address(try MACAddress(rest))
        case ("irk", 1):
            self = .irk(IRKIdentity(fingerprint: try Self.hex(rest, bytes: IRKIdentity.fingerprintBytes)))
        default:
            throw FieldError("is not a tag identity key: \"\(key)\"")
        }
    }

    /// `text` as lower-case hex of exactly `bytes` bytes.
    ///
    /// - Throws: ``FieldError`` saying how many hex digits were expected.
    public static func hex(_ text: String, bytes: Int) throws(FieldError) -> String {
        let lower = text.lowercased()
        // ASCII only: `Character.isHexDigit` also takes fullwidth digits, which nothing reads back as bytes.
        let isHex = lower.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
        guard lower.utf8.count == bytes * 2, isHex else {
            throw FieldError("must be \(bytes * 2) hex digits, got \"\(text)\"")
        }
        return lower
    }
}

extension TagIdentity: Codable {
    enum CodingKeys: String, CodingKey {
        case kind, uuid, major, minor, namespace, instance, beaconID, address, key, keyByteOrder, fingerprint
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "ibeacon":
            self = .iBeacon(BeaconID(
                uuid: try c.decode(UUID.self, forKey: .uuid), major: try c.decode(UInt16.self, forKey: .major),
                minor: try c.decode(UInt16.self, forKey: .minor)
            ))
        case "eddystone-uid":
            self = .eddystoneUID(
                namespace: try Self.decodeHex(c, .namespace, bytes: 10), instance: try Self.decodeHex(c, .instance, bytes: 6)
            )
        case "altbeacon":
            self = .altBeacon(try Self.decodeHex(c, .beaconID, bytes: 20))
        case "address":
            self = .address(try c.decode(MACAddress.self, forKey: .address))
        case "irk":
            self = .irk(try Self.decodeIRK(c))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c, debugDescription: "must be ibeacon, eddystone-uid, altbeacon, address or irk, got \"\(kind)\""
            )
        }
    }

    private static func decodeHex(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, bytes: Int) throws -> String {
        let text = try c.decode(String.self, forKey: key)
        do {
            return try hex(text, bytes: bytes)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: error.reason)
        }
    }

    /// A request's `key` (with `keyByteOrder`), or an `irk` identity as written (`fingerprint`).
    private static func decodeIRK(_ c: KeyedDecodingContainer<CodingKeys>) throws -> IRKIdentity {
        guard let text = try c.decodeIfPresent(String.self, forKey: .key) else {
            return IRKIdentity(fingerprint: try decodeHex(c, .fingerprint, bytes: IRKIdentity.fingerprintBytes))
        }
        let order = try c.decodeIfPresent(IdentityResolvingKey.ByteOrder.self, forKey: .keyByteOrder)
        do {
            return IRKIdentity(fingerprint: "", key: try IdentityResolvingKey(parsing: text, order: order))
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .key, in: c, debugDescription: error.reason)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .iBeacon(let id):
            try c.encode("ibeacon", forKey: .kind)
            try c.encode(id.uuid, forKey: .uuid)
            try c.encode(id.major, forKey: .major)
            try c.encode(id.minor, forKey: .minor)
        case .eddystoneUID(let namespace, let instance):
            try c.encode("eddystone-uid", forKey: .kind)
            try c.encode(namespace, forKey: .namespace)
            try c.encode(instance, forKey: .instance)
        case .altBeacon(let id):
            try c.encode("altbeacon", forKey: .kind)
            try c.encode(id, forKey: .beaconID)
        case .address(let address):
            try c.encode("address", forKey: .kind)
            try c.encode(address, forKey: .address)
        case .irk(let identity):
            // The fingerprint only: the key is never written with the identity.
            try c.encode("irk", forKey: .kind)
            try c.encode(identity.fingerprint, forKey: .fingerprint)
        }
    }
}
