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
    /// WGS 84 degrees, present only when the floor is geo-referenced (`PUT /v1/floors/{id}/georeference`);
    /// not stored, worked out from the floor's geo-reference when read.
    public var latitude: Double?
    public var longitude: Double?

    public init(
        id: Int64, tagID: Int64, time: Date, floorID: Int64, x: Double, y: Double, roomID: Int64?,
        accuracyMetres: Double, method: String, scannersHeard: Int, latitude: Double? = nil, longitude: Double? = nil
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
        self.latitude = latitude
        self.longitude = longitude
    }
}
