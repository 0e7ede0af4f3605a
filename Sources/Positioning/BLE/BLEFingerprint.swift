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

/// BLE fingerprinting over the per-location statistics of a radio map (`RadioMapLocation.emitters`):
/// a window of readings (mean RSSI per beacon) is compared with every location's mean RSSI per
/// beacon, and the position is the weighted mean of the best few locations. Only BLE emitters
/// count; Wi-Fi access points in the map are ignored.
public struct BLEFingerprint: Sendable {
    public enum Scoring: Hashable, Sendable {
        /// Root-mean-square difference of mean RSSI over the beacons heard at either side,
        /// weights 1 / (distance + 1 dB).
        case nearestMeans
        /// Gaussian log-likelihood of the window under each location's mean and spread (the
        /// spread widened by `extraSpread` dB, for readings of another day), weights ∝ likelihood.
        case gaussian(extraSpread: Double)
    }

    public struct Settings: Hashable, Sendable {
        /// How many best locations are averaged.
        public var k: Int
        public var scoring: Scoring
        /// RSSI assumed for a beacon not heard on one side, dBm.
        public var notHeard: Double
        /// The accuracy radius never falls below this, metres.
        public var minimumAccuracy: Double

        public init(k: Int = 3, scoring: Scoring = .nearestMeans, notHeard: Double = -100, minimumAccuracy: Double = 1) {
            self.k = k
            self.scoring = scoring
            self.notHeard = notHeard
            self.minimumAccuracy = minimumAccuracy
        }
    }

    /// What one query matched.
    public struct Match: Hashable, Sendable {
        public var estimate: PositionEstimate
        /// The best-matching surveyed location and its room.
        public var nearestLocationID: Int64
        public var roomID: Int64
    }

    public static let methodName = "ble-fingerprint"
    public var settings: Settings
    private let locations: [RadioMapLocation]
    private let emitters: [Emitter]
    /// Per location, mean and spread per emitter in `emitters` order (nil: not heard there).
    private let means: [[Double?]]
    private let spreads: [[Double]]

    /// Keeps the locations that heard at least one beacon.
    public init(locations: [RadioMapLocation], settings: Settings = Settings()) {
        self.settings = settings
        let kept = locations.filter { $0.emitters.contains { $0.emitter.kind == .ble } }
        let emitters = Set(kept.flatMap { $0.emitters.map(\.emitter) }).filter { $0.kind == .ble }.sorted()
        let index = Dictionary(uniqueKeysWithValues: emitters.enumerated().map { ($1, $0) })
        var means: [[Double?]] = []
        var spreads: [[Double]] = []
        for location in kept {
            var m = [Double?](repeating: nil, count: emitters.count)
            var s = [Double](repeating: 0, count: emitters.count)
            for fingerprint in location.emitters {
                guard let i = index[fingerprint.emitter] else { continue }
                m[i] = fingerprint.mean
                s[i] = fingerprint.spread
            }
            means.append(m)
            spreads.append(s)
        }
        self.locations = kept
        self.emitters = emitters
        self.means = means
        self.spreads = spreads
    }

    /// The best match for a window (beacon → mean RSSI, dBm), or nil when the map is empty or
    /// the window holds no beacon the map knows. The estimate takes the floor of the best
    /// location, and only locations on that floor are averaged; its accuracy is the weighted
    /// spread of those locations around it (at least `minimumAccuracy`).
    public func locate(_ window: [Emitter: Double]) -> Match? {
        let query = emitters.map { window[$0] }
        guard query.contains(where: { $0 != nil }), !locations.isEmpty else { return nil }
        let scores = locations.indices.map { score(query, at: $0) }
        let ranked = scores.indices.sorted { scores[$0] > scores[$1] }
        guard let best = ranked.first else { return nil }
        let floorID = locations[best].floorID
        let chosen = ranked.lazy.filter { locations[$0].floorID == floorID }.prefix(max(settings.k, 1))
        let centre = WeightedCentroid(chosen.map { (locations[$0].x, locations[$0].y, weight(scores[$0], best: scores[best])) })
        let accuracy = max(centre.spread, settings.minimumAccuracy)
        return Match(
            estimate: PositionEstimate(floorID: floorID, x: centre.x, y: centre.y, accuracyMetres: accuracy, method: Self.methodName),
            nearestLocationID: locations[best].locationID, roomID: locations[best].roomID
        )
    }

    /// Higher is better.
    private func score(_ query: [Double?], at location: Int) -> Double {
        let mean = means[location]
        switch settings.scoring {
        case .nearestMeans:
            var sum = 0.0, count = 0
            for (q, m) in zip(query, mean) where q != nil || m != nil {
                let d = (q ?? settings.notHeard) - (m ?? settings.notHeard)
                sum += d * d
                count += 1
            }
            return -(sum / Double(max(count, 1))).squareRoot()
        case .gaussian(let extraSpread):
            var logLikelihood = 0.0
            for ((q, m), s) in zip(zip(query, mean), spreads[location]) where q != nil || m != nil {
                let sigma2 = s * s + extraSpread * extraSpread + 1
                let d = (q ?? settings.notHeard) - (m ?? settings.notHeard)
                logLikelihood -= 0.5 * (d * d / sigma2 + log(sigma2))
            }
            return logLikelihood
        }
    }

    private func weight(_ score: Double, best: Double) -> Double {
        switch settings.scoring {
        case .nearestMeans: 1 / (-score + 1)
        case .gaussian: exp(score - best)
        }
    }
}
