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
}
