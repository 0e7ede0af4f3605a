#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where switchd places a tag from what the fixed scanners heard (`GET /v1/tags/{id}/positions`).
public struct TagPosition: Codable, Hashable, Sendable {
    public var id: Int64
    public var tagID: Int64
    /// The end of the windows the position was computed from.
    public var time: Date
    public var floorID: Int64
    public var x: Double
    public var y: Double
    /// The room of the location nearest the position; nil when the floor has no locations.
    public var roomID: Int64?
    public var accuracyMetres: Double
    /// `fused` (multilateration and the fixed scanners' fingerprints), `tag-fingerprint`,
    /// `tag-multilateration` or `strongest-scanner` (too few scanners heard it), smoothed.
    public var method: String
    /// How many fixed scanners heard the tag in those windows.
    public var scannersHeard: Int

    public init(
        id: Int64, tagID: Int64, time: Date, floorID: Int64, x: Double, y: Double, roomID: Int64?,
        accuracyMetres: Double, method: String, scannersHeard: Int
    ) {
        self.id = id
        self.tagID = tagID
        self.time = time
        self.floorID = floorID
        self.x = x
        self.y = y
        self.roomID = roomID
        self.accuracyMetres = accuracyMetres
        self.method = method
        self.scannersHeard = scannersHeard
    }
}

/// Something that happened to a tag (`GET /v1/tags/{id}/events`).
public struct TagEvent: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Sendable {
        /// A tag marked missing was heard.
        case missingTagHeard
    }

    public var id: Int64
    public var tagID: Int64
    public var kind: Kind
    public var time: Date
    /// The scanner that heard it.
    public var scannerID: ScannerID

    public init(id: Int64, tagID: Int64, kind: Kind, time: Date, scannerID: ScannerID) {
        self.id = id
        self.tagID = tagID
        self.kind = kind
        self.time = time
        self.scannerID = scannerID
    }
}
