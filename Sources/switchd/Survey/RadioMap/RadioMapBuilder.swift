import Positioning
import ScanContract
import SwitchdStore

/// Builds a ``RadioMap`` from the survey: readings are grouped by location, then by scan cycle;
/// an emitter heard more than once in a cycle counts once, with the mean of its readings. A
/// location's fingerprint holds, per emitter, the mean, spread (population standard deviation)
/// and count of those per-cycle values. Locations without readings are listed with none.
struct RadioMapBuilder {
    let floors: [Floor]
    let beacons: [Beacon]
    let locations: [Location]
    /// Rooms; the outlined ones go into the map.
    let rooms: [Room]
    /// Location → scan cycle → emitter → (sum, count) of the cycle's readings.
    private var cycles: [Int64: [SurveyScanKey: [Emitter: (sum: Double, count: Int)]]] = [:]

    init(floors: [Floor], beacons: [Beacon], locations: [Location], rooms: [Room] = []) {
        self.floors = floors
        self.beacons = beacons
        self.locations = locations
        self.rooms = rooms
    }

    mutating func add(_ reading: SurveyReading) {
        cycles[reading.locationID, default: [:]][reading.scan, default: [:]][reading.emitter, default: (0, 0)].sum += Double(reading.rssi)
        cycles[reading.locationID, default: [:]][reading.scan, default: [:]][reading.emitter, default: (0, 0)].count += 1
    }

    /// Floors ordered by building, level and ID; beacons, locations and outlined rooms by ID
    /// (no `rooms` when none is outlined); scans by scanner,
    /// revision and scan number; emitters strongest first.
    func build() -> RadioMap {
        let mapLocations = locations.map(fingerprint(of:))
        let mapFloors = floors.map { floor in
            RadioMapFloor(
                floorID: floor.id, building: floor.building, level: floor.level,
                pathLossExponent: Self.pathLossExponent(
                    of: floor, beacons: beacons.filter { $0.floorID == floor.id },
                    locations: mapLocations.filter { $0.floorID == floor.id }
                )
            )
        }
        let outlined = rooms.compactMap { room in room.outline.map { RadioMapRoom(roomID: room.id, floorID: room.floorID, outline: $0) } }
        return RadioMap(floors: mapFloors, beacons: beacons, locations: mapLocations, rooms: outlined.isEmpty ? nil : outlined)
    }

    /// Fewest (beacon, location) pairs a floor's exponent is fitted from; with fewer the fit says
    /// more about a doorway or a person in the way than about the floor.
    static let minimumPathLossPairs = 6
    private static let commonReferencePower = -100.0

    /// The log-distance path-loss exponent fitted on one floor's survey: every registered beacon
    /// as heard (mean RSSI) at every surveyed location of that floor, its measured power taken as
    /// the power at 1 m, the scanner at the height scanners assume. Nil — "use the default" —
    /// with fewer than ``minimumPathLossPairs`` pairs, or when the fit is degenerate or implausible.
    static func pathLossExponent(of floor: Floor, beacons: [Beacon], locations: [RadioMapLocation]) -> Double? {
        let scannerHeight = Locator.Settings().scannerHeight
        var samples: [PathLossSample] = []
        for beacon in beacons {
            let emitter = Emitter.beacon(beacon.beaconID)
            for location in locations {
                guard let heard = location.emitters.first(where: { $0.emitter == emitter }) else { continue }
                let dx = location.x - beacon.x, dy = location.y - beacon.y, dz = beacon.z - scannerHeight
                // Relative to the beacon's own measured power, so that beacons of different power
                // share one fit; moved onto a common reference power (the slope does not change)
                // so that every value stays a plausible negative dBm.
                let rssi = heard.mean - Double(beacon.measuredPower) + commonReferencePower
                samples.append(PathLossSample(distance: (dx * dx + dy * dy + dz * dz).squareRoot(), rssi: rssi))
            }
        }
        guard samples.count >= minimumPathLossPairs else { return nil }
        return try? PathLossModel.fitExponent(samples, powerAt1m: commonReferencePower).exponent
    }

    private func fingerprint(of location: Location) -> RadioMapLocation {
        let scans = (cycles[location.id] ?? [:]).sorted { $0.key < $1.key }.map { _, emitters in
            emitters.mapValues { $0.sum / Double($0.count) }
        }
        var samples: [Emitter: [Double]] = [:]
        for scan in scans {
            for (emitter, rssi) in scan { samples[emitter, default: []].append(rssi) }
        }
        let emitters = samples.map { emitter, values in
            let mean = values.reduce(0, +) / Double(values.count)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
            return EmitterFingerprint(emitter: emitter, mean: mean, spread: variance.squareRoot(), count: values.count)
        }.sorted { ($0.mean, $1.emitter) > ($1.mean, $0.emitter) }
        return RadioMapLocation(
            locationID: location.id, floorID: location.floorID, roomID: location.roomID,
            x: location.x, y: location.y, emitters: emitters, scans: scans, walkID: location.walkID
        )
    }
}
