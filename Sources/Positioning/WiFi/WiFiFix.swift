/// A Wi-Fi method's answer: the shared position estimate plus what fingerprinting knows besides.
public struct WiFiFix: Hashable, Sendable {
    public var estimate: PositionEstimate
    /// The building the method chose.
    public var building: String
    /// The surveyed location of the nearest fingerprint on the chosen floor, when the survey named it.
    public var nearestLocationID: Int64?

    public init(estimate: PositionEstimate, building: String, nearestLocationID: Int64?) {
        self.estimate = estimate
        self.building = building
        self.nearestLocationID = nearestLocationID
    }
}

/// A positioning method over a fingerprint index: one scan's readings (dBm per radio) in, a fix out.
public protocol WiFiLocator<Key>: Sendable {
    associatedtype Key: Hashable & Comparable & Sendable
    /// The method's name as reported in positions.
    var method: String { get }
    /// Nil when the scan shares no radio with the survey (nothing to compare).
    func locate(_ readings: [Key: Double]) -> WiFiFix?
}
