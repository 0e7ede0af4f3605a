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

/// Weighted k-nearest-neighbour positioning in a cascade, all by Sørensen distance on powed RSSI:
/// the nearest surveyed locations (their samples averaged) vote for the building, then the nearest
/// locations in that building vote for the floor, then the nearest individual samples on that
/// floor give the position. Votes and averages are weighted by a power of 1 / (distance + ε), and
/// only samples nearly as near as the nearest one are averaged.
///
/// Building and floor are wide targets best judged against a location's mean fingerprint, which
/// smooths out one sample's noise; the position is best taken from individual samples, which
/// keep the detail that separates neighbouring points. docs/wifi-fingerprinting.md has the
/// measurements behind this split and behind `Settings.standard`.
public struct WiFiKNNLocator<Key: Hashable & Comparable & Sendable>: WiFiLocator {
    public struct Settings: Hashable, Sendable {
        /// Locations voting for the building.
        public var buildingVoters: Int
        /// Locations in the chosen building voting for the floor.
        public var floorVoters: Int
        /// At most this many samples on the chosen floor are averaged for the position.
        public var neighbours: Int
        /// A floor vote weighs 1 / (distance + ε) raised to this power; above 1 the nearest
        /// locations count for more against a crowd of farther ones.
        public var floorVoteWeightPower: Double
        /// A neighbour's weight in the position is 1 / (distance + ε) raised to this power.
        public var positionWeightPower: Double
        /// Of the `neighbours` nearest samples, only those within this multiple of the nearest
        /// one's distance are averaged (all of them when the nearest is at distance 0, or when
        /// this is infinite): a scan that matches a few samples well is not dragged towards
        /// the poorer matches that fill up a fixed k.
        public var neighbourDistanceRatio: Double
        /// The position from the nearest surveyed *locations* (their samples' mean fingerprints)
        /// on the chosen floor instead of the nearest samples: where survey points are sparse and
        /// sampled many times, this interpolates between points instead of snapping to one.
        public var positionFromLocations: Bool

        public init(
            buildingVoters: Int, floorVoters: Int, neighbours: Int,
            floorVoteWeightPower: Double = 1, positionWeightPower: Double = 1, neighbourDistanceRatio: Double = .infinity,
            positionFromLocations: Bool = false
        ) {
            self.positionFromLocations = positionFromLocations
            self.buildingVoters = buildingVoters
            self.floorVoters = floorVoters
            self.neighbours = neighbours
            self.floorVoteWeightPower = floorVoteWeightPower
            self.positionWeightPower = positionWeightPower
            self.neighbourDistanceRatio = neighbourDistanceRatio
        }
    }

    /// Keeps identical fingerprints (distance 0) from taking an infinite weight.
    static var weightEpsilon: Double { 1e-6 }

    /// One fingerprint per survey sample; gives the position.
    public let samples: FingerprintIndex<Key>
    /// One fingerprint per surveyed location; gives building and floor.
    public let locations: FingerprintIndex<Key>
    public let settings: Settings
    public var method: String { "wifi-knn" }

    /// True when every surveyed location has one sample, so that both indexes are the same and a
    /// scan's distances are computed once for both.
    let samplesAreLocations: Bool

    /// Both indexes should come from the same survey in the same representation.
    public init(samples: FingerprintIndex<Key>, locations: FingerprintIndex<Key>, settings: Settings) {
        self.init(samples: samples, locations: locations, samplesAreLocations: false, settings: settings)
    }

    /// Builds both indexes from the survey samples (one, when every location has one sample).
    public init(records: [FingerprintRecord<Key>], representation: PoweredRSSI = .standard, settings: Settings = .standard) {
        self.init(
            survey: SurveyReadings(records: records, representation: representation), records: records,
            rows: Array(records.indices), settings: settings)
    }

    /// Both indexes of the records `rows` (in survey order) of `records`, whose usable readings
    /// `survey` holds: the locator of those records alone, in `survey`'s representation.
    init(survey: SurveyReadings<Key>, records: [FingerprintRecord<Key>], rows: [Int], settings: Settings) {
        let samples = FingerprintIndex(survey: survey, records: records, rows: rows, grouping: .eachSample)
        let alone = survey.groups(of: rows, by: .meanPerLocation).count == rows.count
        self.init(
            samples: samples,
            locations: alone ? samples : FingerprintIndex(survey: survey, records: records, rows: rows, grouping: .meanPerLocation),
            samplesAreLocations: alone, settings: settings)
    }

    private init(samples: FingerprintIndex<Key>, locations: FingerprintIndex<Key>, samplesAreLocations: Bool, settings: Settings) {
        self.samples = samples
        self.locations = locations
        self.samplesAreLocations = samplesAreLocations
        self.settings = settings
    }

    /// The same indexes with other settings: settings that leave the representation alone can be
    /// compared without building the indexes again.
    public func with(_ settings: Settings) -> Self {
        Self(samples: samples, locations: locations, samplesAreLocations: samplesAreLocations, settings: settings)
    }

    /// Heap bytes of both indexes (of the one, when they are the same).
    public var memoryBytes: Int { samples.memoryBytes + (samplesAreLocations ? 0 : locations.memoryBytes) }

    public func locate(_ readings: [Key: Double]) -> WiFiFix? {
        guard var atLocations = locations.search(readings) else { return nil }
        let buildingVoters = locations.nearest(settings.buildingVoters, in: &atLocations, scope: .everywhere)
        let building = vote(among: buildingVoters, power: 1) { Int64(locations.buildingOf[$0]) }
        let inBuilding = FingerprintScope(building: Int32(building), floor: nil)
        // The building's nearest locations are usually among the building voters already.
        let floorVoters = buildingVoters.restricted(to: max(settings.floorVoters, 1)) { locations.buildingOf[Int($0)] == inBuilding.building }
            ?? locations.nearest(settings.floorVoters, in: &atLocations, scope: inBuilding)
        let floor = vote(among: floorVoters, power: settings.floorVoteWeightPower) { locations.floorOf[$0] }
        let name = locations.buildings[Int(building)]
        // Samples of the chosen building and floor; should there be none (indexes of different
        // surveys), or when the settings ask for it, the nearest locations give the position instead.
        if !settings.positionFromLocations, let sampleBuilding = samples.buildings.firstIndex(of: name).map(Int32.init),
           var atSamples = samplesAreLocations ? atLocations : samples.search(readings) {
            let onFloor = samples.nearest(
                settings.neighbours, in: &atSamples, scope: FingerprintScope(building: sampleBuilding, floor: floor),
                reachRatio: settings.neighbourDistanceRatio)
            if !onFloor.isEmpty { return fix(from: onFloor, in: samples, building: name, floor: floor) }
        }
        let onFloor = locations.nearest(
            settings.neighbours, in: &atLocations, scope: FingerprintScope(building: Int32(building), floor: floor),
            reachRatio: settings.neighbourDistanceRatio)
        return fix(from: onFloor, in: locations, building: name, floor: floor)
    }

    /// The weighted mean position of `candidates` (not empty) within `neighbourDistanceRatio` of
    /// the nearest, with their weighted spread around it as the accuracy (0 when a single
    /// neighbour decides).
    func fix(from candidates: NearestFingerprints, in index: FingerprintIndex<Key>, building: String, floor: Int64) -> WiFiFix {
        fix(from: candidates, in: index, building: building, floor: floor, settings: settings)
    }

    /// The fix `with(settings).fix(from:in:building:floor:)` gives, without copying the locator.
    func fix(from candidates: NearestFingerprints, in index: FingerprintIndex<Key>, building: String, floor: Int64, settings: Settings) -> WiFiFix {
        let nearestDistance = candidates.distances[0]
        let reach = nearestDistance > 0 ? nearestDistance * settings.neighbourDistanceRatio : .infinity
        let neighbours = zip(candidates.distances, candidates.records).filter { $0.0 <= reach }
        var weightSum = 0.0, x = 0.0, y = 0.0
        for (distance, record) in neighbours {
            let weight = weight(distance, power: settings.positionWeightPower)
            weightSum += weight
            x += weight * index.xOf[Int(record)]
            y += weight * index.yOf[Int(record)]
        }
        x /= weightSum
        y /= weightSum
        var spread = 0.0
        for (distance, record) in neighbours {
            let dx = index.xOf[Int(record)] - x, dy = index.yOf[Int(record)] - y
            spread += (dx * dx + dy * dy) * weight(distance, power: settings.positionWeightPower)
        }
        return WiFiFix(
            estimate: PositionEstimate(
                floorID: floor, x: x, y: y, accuracyMetres: (spread / weightSum).squareRoot(), method: method),
            building: building,
            nearestLocationID: index.locationOf[Int(candidates.records[0])]
        )
    }

    /// 1 / (distance + ε) raised to `power`.
    private func weight(_ distance: Double, power: Double) -> Double {
        let inverse = 1 / (distance + Self.weightEpsilon)
        return power == 1 ? inverse : pow(inverse, power)
    }

    /// The label with the largest summed weight (`weight(_:power:)` of each voter); on equal
    /// weight, the label of the nearer voter.
    /// (A handful of voters: the labels' sums are kept in a short list, in order of first vote.)
    func vote(among voters: NearestFingerprints, power: Double, label: (Int) -> Int64) -> Int64 {
        var labels: [Int64] = [], weights: [Double] = []
        labels.reserveCapacity(voters.records.count)
        weights.reserveCapacity(voters.records.count)
        for (distance, record) in zip(voters.distances, voters.records) {
            let voted = label(Int(record))
            if let known = labels.firstIndex(of: voted) {
                weights[known] += weight(distance, power: power)
            } else {
                labels.append(voted)
                weights.append(weight(distance, power: power))
            }
        }
        // The first label is the nearest voter's; a later one wins only by a larger sum.
        var best = 0
        for candidate in labels.indices.dropFirst() where weights[candidate] > weights[best] { best = candidate }
        return labels[best]
    }
}
