#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ScanContract

/// Where a scanner is, as it is posted to switchd: the position plus what the survey names there.
public struct LocatedPosition: Hashable, Sendable {
    public var building: String
    public var floorID: Int64
    public var x: Double
    public var y: Double
    /// The room of the nearest surveyed location, held steady against flip-flopping.
    public var roomID: Int64?
    public var nearestLocationID: Int64?
    public var accuracyMetres: Double
    /// The methods that contributed, e.g. "wifi-knn+ble-trilateration+kalman".
    public var method: String
    /// Every beacon of the BLE window, loudest first, with its proximity class.
    public var beacons: [BeaconSighting]
}

/// Positioning on the device from one radio map. Each scan cycle's Wi-Fi readings go through the
/// fingerprint kNN; the BLE window (mean RSSI per beacon) through trilateration against the
/// registered beacons and through the BLE fingerprint where the survey heard beacons. The
/// estimates are fused by their accuracy (fingerprints decide the floor), smoothed over time by
/// a Kalman filter, and the room is held steady by the room smoother.
///
/// Stateful (the filters): ``reset()`` when a new locate session starts.
public struct Locator: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Height of the scanner above its floor, metres (for ranging to beacons on the ceiling).
        public var scannerHeight: Double = 1.2
        /// Path-loss exponent for floors whose survey did not fit one.
        public var defaultExponent: Double = 2.0
        /// No estimate claims to be better than this, metres: a fingerprint whose neighbours all
        /// sit on one spot has no spread, yet is not exact.
        public var minimumAccuracy: Double = 1.0
        public var kalman = PositionKalmanFilter.Settings()
        public var rooms = RoomSmoother.Settings()

        public init() {}
    }

    private let wifi: WiFiKNNLocator<Emitter>?
    private let bleFingerprint: BLEFingerprint?
    private let trilateration: BLETrilateration
    private let anchors: [Emitter: RangingAnchor]
    private let fusion = PositionFusion()
    private let buildingOfFloor: [Int64: String]
    private let locationsOfFloor: [Int64: [RadioMapLocation]]
    /// The outlined rooms of each floor: a position's room is the outline's that holds it.
    private let outlinesOfFloor: [Int64: RoomOutlines]
    private var kalman: PositionKalmanFilter
    private var rooms: RoomSmoother
    private var lastFloor: Int64?
    private let minimumAccuracy: Double
    private let defaultExponent: Double
    /// Per floor: how finely its fingerprints can tell places apart (half the typical spacing of
    /// its surveyed locations).
    private let fingerprintResolution: [Int64: Double]

    public init(map: RadioMap, settings: Settings = Settings()) {
        let survey = FingerprintRecord.wifiSurvey(of: map)
        wifi = survey.isEmpty ? nil : WiFiKNNLocator.choosingSettings(records: survey).locator
        let bleSurveyed = map.locations.contains { $0.emitters.contains { $0.emitter.kind == .ble } }
        bleFingerprint = bleSurveyed ? BLEFingerprint(locations: map.locations) : nil
        trilateration = BLETrilateration(settings: .init(height: settings.scannerHeight))
        let exponentOfFloor = Dictionary(map.floors.map { ($0.floorID, $0.pathLossExponent) }, uniquingKeysWith: { a, _ in a })
        anchors = Dictionary(map.beacons.map { beacon in
            let anchor = RangingAnchor(
                beacon: beacon, exponent: exponentOfFloor[beacon.floorID] ?? nil, defaultExponent: settings.defaultExponent
            )
            return (Emitter.beacon(beacon.beaconID), anchor)
        }, uniquingKeysWith: { a, _ in a })
        buildingOfFloor = Dictionary(map.floors.map { ($0.floorID, $0.building) }, uniquingKeysWith: { a, _ in a })
        locationsOfFloor = Dictionary(grouping: map.locations, by: \.floorID)
        outlinesOfFloor = Self.outlines(of: map.rooms ?? [])
        minimumAccuracy = settings.minimumAccuracy
        defaultExponent = settings.defaultExponent
        fingerprintResolution = locationsOfFloor.compactMapValues(Self.halfTypicalSpacing)
        kalman = PositionKalmanFilter(settings: settings.kalman)
        rooms = RoomSmoother(settings: settings.rooms)
    }

    /// Each floor's outlined rooms; an outline that is not a simple polygon with an area (switchd
    /// stores none such) is left out.
    static func outlines(of rooms: [RadioMapRoom]) -> [Int64: RoomOutlines] {
        Dictionary(grouping: rooms, by: \.floorID).mapValues { rooms in
            RoomOutlines(rooms.compactMap { room in
                let polygon = PlanPolygon(room.outline.compactMap { $0.count == 2 ? PlanPolygon.Point(x: $0[0], y: $0[1]) : nil })
                return polygon.problem == nil && polygon.corners.count == room.outline.count ? RoomOutlines.Outlined(roomID: room.roomID, polygon: polygon) : nil
            })
        }
    }

    /// Whether the map gives anything to position with (a Wi-Fi survey, a BLE survey or beacons).
    public var canLocate: Bool { wifi != nil || bleFingerprint != nil || !anchors.isEmpty }

    /// Forgets the track: the next position starts afresh.
    public mutating func reset() {
        kalman.reset()
        rooms.reset()
        lastFloor = nil
    }

    /// One position from one scan cycle: `wifi` holds the cycle's Wi-Fi readings (dBm), `ble` the
    /// BLE samples of the recent window per beacon. Nil when nothing heard matches the map, or the
    /// fused position lies on a floor the map does not know.
    /// `advertisedPower` is the measured power beacons advertise (iBeacon's last byte), used for
    /// the proximity of beacons the registry does not know.
    public mutating func locate(
        wifi readings: [Emitter: Double], ble samples: [Emitter: [Double]], advertisedPower: [Emitter: Int] = [:], at time: Date
    ) -> LocatedPosition? {
        var estimates: [PositionEstimate] = []
        var wifiBuilding: String?
        if let wifi, !readings.isEmpty, let fix = wifi.locate(readings) {
            estimates.append(fix.estimate)
            wifiBuilding = fix.building
        }
        let bleMeans = samples.compactMapValues { $0.isEmpty ? nil : $0.reduce(0, +) / Double($0.count) }
        if let bleFingerprint, !bleMeans.isEmpty, let match = bleFingerprint.locate(bleMeans) {
            estimates.append(match.estimate)
        }
        let ranged = bleMeans.compactMap { emitter, rssi in anchors[emitter].map { AnchorReading(anchor: $0, rssi: rssi) } }
        if !ranged.isEmpty, let estimate = trilateration.locate(ranged) {
            estimates.append(estimate)
        }
        for index in estimates.indices {
            var floorOfAccuracy = minimumAccuracy
            if Self.fingerprintMethods.contains(estimates[index].method), let floorID = estimates[index].floorID {
                floorOfAccuracy = max(floorOfAccuracy, fingerprintResolution[floorID] ?? 0)
            }
            estimates[index].accuracyMetres = max(estimates[index].accuracyMetres, floorOfAccuracy)
        }
        guard let fused = fusion.fuse(estimates), let floorID = fused.floorID,
              let building = buildingOfFloor[floorID] ?? wifiBuilding
        else { return nil }
        if floorID != lastFloor {
            rooms.reset()
            lastFloor = floorID
        }
        let smoothed = kalman.update(fused, at: time.timeIntervalSince1970)
        let nearest = nearestLocation(to: smoothed, on: floorID)
        // The room the outlines give (docs/tags.md, "Rooms"), else the nearest location's.
        let observed = outlinesOfFloor[floorID]?.room(atX: smoothed.x, y: smoothed.y) ?? nearest?.roomID
        let room = observed.map { rooms.update(observed: $0) }
        return LocatedPosition(
            building: building, floorID: floorID, x: smoothed.x, y: smoothed.y,
            roomID: room, nearestLocationID: nearest?.locationID,
            accuracyMetres: max(smoothed.accuracyMetres, minimumAccuracy),
            method: (Set(estimates.map(\.method)).sorted() + ["kalman"]).joined(separator: "+"),
            beacons: sightings(bleMeans, counts: samples.mapValues(\.count), advertisedPower: advertisedPower)
        )
    }

    /// The proximity of each beacon heard: by the registered beacon's model (its measured power
    /// and its floor's exponent) when the registry knows it, else by the power it advertises and
    /// the default exponent; unknown without either.
    func sightings(_ means: [Emitter: Double], counts: [Emitter: Int], advertisedPower: [Emitter: Int]) -> [BeaconSighting] {
        means.compactMap { emitter, rssi -> BeaconSighting? in
            guard case .beacon(let beacon) = emitter else { return nil }
            let model = anchors[emitter]?.model ?? advertisedPower[emitter].map {
                PathLossModel(powerAt1m: Double($0), exponent: defaultExponent, shadowingSigma: 0)
            }
            let proximity = model.map { BeaconProximity(rssi: rssi, measuredPower: $0.powerAt1m, exponent: $0.exponent) } ?? .unknown
            let distance = proximity == .unknown ? nil : model?.distance(forRSSI: rssi)
            return BeaconSighting(beacon: beacon, rssi: rssi, samples: counts[emitter] ?? 0, distanceMetres: distance, proximity: proximity)
        }.sorted { ($0.rssi, $1.minor) > ($1.rssi, $0.minor) }
    }

    static let fingerprintMethods: Set<String> = ["wifi-knn", BLEFingerprint.methodName]

    /// Half the median distance from a surveyed location to its nearest neighbour: a fingerprint
    /// whose neighbours all sit on one spot is still only that sure. Nil with fewer than two.
    static func halfTypicalSpacing(_ locations: [RadioMapLocation]) -> Double? {
        guard locations.count >= 2 else { return nil }
        let nearest = locations.map { location in
            locations.lazy.filter { $0.locationID != location.locationID }
                .map { hypot($0.x - location.x, $0.y - location.y) }.min() ?? 0
        }.sorted()
        return nearest[nearest.count / 2] / 2
    }

    private func nearestLocation(to estimate: PositionEstimate, on floorID: Int64) -> RadioMapLocation? {
        locationsOfFloor[floorID]?.min {
            hypot($0.x - estimate.x, $0.y - estimate.y) < hypot($1.x - estimate.x, $1.y - estimate.y)
        }
    }
}
