/// How close a heard beacon is, in the coarse classes iOS reports (CLProximity). Positioning
/// classes a reading by its distance (`BeaconProximity(rssi:measuredPower:…)`).
public enum BeaconProximity: String, Codable, Hashable, Sendable, CaseIterable {
    case immediate, near, far, unknown
}
