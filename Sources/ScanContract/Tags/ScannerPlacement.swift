/// Where a fixed scanner stands (`PUT /v1/scanners/{id}/placement`): a scanner with a placement
/// hears tags for switchd to locate. `receiveOffsetOverride`, when set, replaces the offset
/// switchd estimates; `pathLossExponent` defaults to ``defaultPathLossExponent``.
public struct NewScannerPlacement: Codable, Hashable, Sendable {
    public var floorID: Int64
    /// Metres on the floor's plan.
    public var x: Double
    public var y: Double
    /// The antenna's height above the floor, metres; defaults to ``defaultHeight``.
    public var height: Double?
    /// dB added to what this scanner reports to match a reference receiver, set by an admin.
    public var receiveOffsetOverride: Double?
    /// How signals fade with distance around this scanner (log-distance exponent).
    public var pathLossExponent: Double?

    public init(
        floorID: Int64, x: Double, y: Double, height: Double? = nil, receiveOffsetOverride: Double? = nil, pathLossExponent: Double? = nil
    ) {
        self.floorID = floorID
        self.x = x
        self.y = y
        self.height = height
        self.receiveOffsetOverride = receiveOffsetOverride
        self.pathLossExponent = pathLossExponent
    }

    public static let defaultHeight = 1.2
    public static let defaultPathLossExponent = 2.0
    /// Receive offsets an admin may set, dB: receivers differ by a few dB, never by 30.
    public static let receiveOffsetLimit = 30.0
    public static let pathLossExponentRange = 1.0...6.0

    /// - Throws: ``ValidationError`` naming `x`, `y`, `height`, `receiveOffsetOverride` or
    ///   `pathLossExponent`. The floor is checked by the store.
    public func validate() throws(ValidationError) {
        try validatePlanCoordinates(x: x, y: y)
        if let height, !(height.isFinite && abs(height) <= NewBeacon.heightLimit) {
            throw ValidationError(field: "height", reason: "must be a finite number of metres within ±\(Int(NewBeacon.heightLimit)), got \(height)")
        }
        if let receiveOffsetOverride, !(receiveOffsetOverride.isFinite && abs(receiveOffsetOverride) <= Self.receiveOffsetLimit) {
            throw ValidationError(
                field: "receiveOffsetOverride", reason: "must be a number of dB within ±\(Int(Self.receiveOffsetLimit)), got \(receiveOffsetOverride)"
            )
        }
        if let pathLossExponent, !Self.pathLossExponentRange.contains(pathLossExponent) {
            throw ValidationError(
                field: "pathLossExponent",
                reason: "must be from \(Self.pathLossExponentRange.lowerBound) to \(Self.pathLossExponentRange.upperBound), got \(pathLossExponent)"
            )
        }
    }
}

/// A fixed scanner's placement as switchd uses it: what was set, the offset it estimated from
/// calibration references, and the offset in use (the override when set, else the estimate,
/// else 0).
public struct ScannerPlacement: Codable, Hashable, Sendable {
    public var scannerID: ScannerID
    public var floorID: Int64
    public var x: Double
    public var y: Double
    public var height: Double
    public var pathLossExponent: Double
    public var receiveOffsetOverride: Double?
    /// dB, estimated from sightings of references at known positions; nil before any.
    public var estimatedReceiveOffset: Double?
    /// How many sightings the estimate rests on.
    public var calibrationSamples: Int
    /// The offset added to this scanner's RSSI before positioning, dB.
    public var receiveOffset: Double

    public init(
        scannerID: ScannerID, floorID: Int64, x: Double, y: Double, height: Double, pathLossExponent: Double,
        receiveOffsetOverride: Double?, estimatedReceiveOffset: Double?, calibrationSamples: Int
    ) {
        self.scannerID = scannerID
        self.floorID = floorID
        self.x = x
        self.y = y
        self.height = height
        self.pathLossExponent = pathLossExponent
        self.receiveOffsetOverride = receiveOffsetOverride
        self.estimatedReceiveOffset = estimatedReceiveOffset
        self.calibrationSamples = calibrationSamples
        receiveOffset = receiveOffsetOverride ?? estimatedReceiveOffset ?? 0
    }
}
