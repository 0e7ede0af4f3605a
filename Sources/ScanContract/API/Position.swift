#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A position a scanner computed on the device and posted (`POST /v1/positions`).
public struct NewPosition: Codable, Hashable, Sendable {
    public var scannerID: ScannerID
    public var time: Date
    public var building: String
    /// The floor's ID.
    public var floor: Int64
    public var x: Double
    public var y: Double
    public var roomID: Int64?
    public var nearestLocationID: Int64?
    public var accuracyMetres: Double
    public var method: String
    /// The beacons heard for this position, each with its proximity class; nil when not reported.
    public var beacons: [BeaconSighting]?

    public init(
        scannerID: ScannerID, time: Date, building: String, floor: Int64, x: Double, y: Double,
        roomID: Int64?, nearestLocationID: Int64?, accuracyMetres: Double, method: String, beacons: [BeaconSighting]? = nil
    ) {
        self.scannerID = scannerID
        self.time = time
        self.building = building
        self.floor = floor
        self.x = x
        self.y = y
        self.roomID = roomID
        self.nearestLocationID = nearestLocationID
        self.accuracyMetres = accuracyMetres
        self.method = method
        self.beacons = beacons
    }
}

/// A stored position: what was posted, plus the sequence number feeds and cursors page by.
public struct Position: Codable, Hashable, Sendable {
    public var id: Int64
    public var scannerID: ScannerID
    public var time: Date
    public var building: String
    public var floor: Int64
    public var x: Double
    public var y: Double
    public var roomID: Int64?
    public var nearestLocationID: Int64?
    public var accuracyMetres: Double
    public var method: String
    public var beacons: [BeaconSighting]?
    /// WGS 84 degrees, present only when the floor is geo-referenced (`PUT /v1/floors/{id}/georeference`).
    public var latitude: Double?
    public var longitude: Double?

    public init(id: Int64, _ position: NewPosition) {
        self.id = id
        scannerID = position.scannerID
        time = position.time
        building = position.building
        floor = position.floor
        x = position.x
        y = position.y
        roomID = position.roomID
        nearestLocationID = position.nearestLocationID
        accuracyMetres = position.accuracyMetres
        method = position.method
        beacons = position.beacons
    }
}
