#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A reference point of the fixed scanners' fingerprint map recorded with a tag held at a known
/// spot ("record this tag here", `/v1/tags/{id}/references`): the tag's next `windowsWanted`
/// windows that placed scanners report, each scanner's path loss (the tag's `txPower` − its
/// RSSI), at (`x`, `y`, `z`) on the floor. It keeps recording until that many windows are in.
public struct TagReference: Codable, Hashable, Sendable {
    public enum State: String, Codable, Hashable, Sendable {
        /// Waiting for more of the tag's windows.
        case recording
        /// `windowsWanted` windows are in and the point is in the map; only other scanners' reports
        /// of its last window still join it.
        case done
    }

    public var id: Int64
    public var tagID: Int64
    public var floorID: Int64
    /// Metres on the floor's plan; `z` is the height above that floor.
    public var x: Double
    public var y: Double
    public var z: Double
    public var windowsWanted: Int
    /// Windows of the tag recorded so far (a window counts once, whichever scanners heard it).
    public var windowsRecorded: Int
    /// The placed scanners that heard the tag in those windows, by ID.
    public var scannersHeard: [String]
    public var state: State
    public var createdAt: Date

    public init(
        id: Int64, tagID: Int64, floorID: Int64, x: Double, y: Double, z: Double, windowsWanted: Int, windowsRecorded: Int,
        scannersHeard: [String], state: State, createdAt: Date
    ) {
        self.id = id
        self.tagID = tagID
        self.floorID = floorID
        self.x = x
        self.y = y
        self.z = z
        self.windowsWanted = windowsWanted
        self.windowsRecorded = windowsRecorded
        self.scannersHeard = scannersHeard
        self.state = state
        self.createdAt = createdAt
    }
}

/// Where to record a tag (`POST /v1/tags/{id}/references`). `z` defaults to the tag's height,
/// `windows` to ``defaultWindows``.
public struct NewTagReference: Codable, Hashable, Sendable {
    public var floorID: Int64
    public var x: Double
    public var y: Double
    public var z: Double?
    public var windows: Int?

    public init(floorID: Int64, x: Double, y: Double, z: Double? = nil, windows: Int? = nil) {
        self.floorID = floorID
        self.x = x
        self.y = y
        self.z = z
        self.windows = windows
    }

    /// Five windows: with scanners' default 2 s windows, ten seconds held still.
    public static let defaultWindows = 5
    /// From one window to a minute of 2 s windows held at one spot.
    public static let windowsRange = 1...30

    /// - Throws: ``ValidationError`` naming `x`, `y`, `z` or `windows`. The floor and the tag are
    ///   checked by the store.
    public func validate() throws(ValidationError) {
        try validatePlanCoordinates(x: x, y: y)
        if let z, !(z.isFinite && abs(z) <= NewBeacon.heightLimit) {
            throw ValidationError(field: "z", reason: "must be a finite number of metres within ±\(Int(NewBeacon.heightLimit)), got \(z)")
        }
        if let windows, !Self.windowsRange.contains(windows) {
            throw ValidationError(
                field: "windows", reason: "must be \(Self.windowsRange.lowerBound) to \(Self.windowsRange.upperBound) windows, got \(windows)"
            )
        }
    }
}
