/// What a positioning method concluded from one scan (or a window of scans).
public struct PositionEstimate: Hashable, Sendable {
    /// The floor, when the method could tell (fingerprints can; trilateration takes it from the beacons).
    public var floorID: Int64?
    public var x: Double
    public var y: Double
    /// Radius, metres, within which the true position probably lies.
    public var accuracyMetres: Double
    /// The method's name as reported in positions, e.g. "wifi-knn", "ble-trilateration", "fused".
    public var method: String

    public init(floorID: Int64?, x: Double, y: Double, accuracyMetres: Double, method: String) {
        self.floorID = floorID
        self.x = x
        self.y = y
        self.accuracyMetres = accuracyMetres
        self.method = method
    }
}
