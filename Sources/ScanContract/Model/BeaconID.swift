#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An iBeacon's identity: proximity UUID, major and minor (Apple's iBeacon specification).
public struct BeaconID: Hashable, Sendable, Codable, CustomStringConvertible {
    public var uuid: UUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: UUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    public var description: String { "\(uuid.uuidString.lowercased())/\(major)/\(minor)" }

    /// Reads `<uuid>/<major>/<minor>`, as ``description`` writes it.
    ///
    /// - Throws: ``FieldError`` for anything else, or a major or minor outside 0…65535.
    public init(parsing text: some StringProtocol) throws(FieldError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let uuid = UUID(uuidString: String(parts[0])),
              let major = UInt16(parts[1]), let minor = UInt16(parts[2])
        else {
            throw FieldError("must be <uuid>/<major>/<minor> with major and minor 0…65535, got \"\(text.prefix(80))\"")
        }
        self.init(uuid: uuid, major: major, minor: minor)
    }
}
