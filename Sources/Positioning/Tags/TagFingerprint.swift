#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A place of known position where an emitter was heard by the fixed scanners: a registered
/// beacon, or a tag carried there during a survey. Each window holds, per scanner that heard it,
/// the path loss: the emitter's power at 1 m minus the scanner's RSSI, dB. Path loss, not RSSI, so
/// a tag of another power matches the fingerprints of a beacon.
public struct TagReferencePoint: Hashable, Sendable {
    public var floorID: Int64
    public var x: Double
    public var y: Double
    /// Height of the emitter above the floor, metres.
    public var height: Double
    /// Scanner → path loss, dB; one dictionary per window the emitter was heard in.
    public var windows: [[String: Double]]

    public init(floorID: Int64, x: Double, y: Double, height: Double = 1, windows: [[String: Double]]) {
        self.floorID = floorID
        self.x = x
        self.y = y
        self.height = height
        self.windows = windows
    }
}

/// Locates a tag by the fingerprints of the fixed scanners: the path loss each scanner reads of
/// the tag is compared with that of every reference point (root-mean-square difference over the
/// scanners heard on either side; a scanner that did not hear counts as ``notHeardLoss``), and
/// the position is the mean of the `k` best on the best one's floor, weighted 1 / (difference + 1 dB).
/// The scanners' receive offsets are not needed: the map was heard by the same receivers.
public struct TagFingerprint: Sendable {
    public struct Settings: Hashable, Sendable {
        /// How many best reference points are averaged.
        public var k: Int
        /// The accuracy radius never falls below this, metres.
        public var minimumAccuracy: Double
        /// Path loss assumed for a scanner that did not hear, beyond the largest loss in the map, dB.
        public var notHeardMargin: Double

        public init(k: Int = 5, minimumAccuracy: Double = 1, notHeardMargin: Double = 5) {
            self.k = k
            self.minimumAccuracy = minimumAccuracy
            self.notHeardMargin = notHeardMargin
        }
    }

    public static let methodName = "tag-fingerprint"
    public var settings: Settings
    private let points: [TagReferencePoint]
    private let scanners: [String]
    /// Per reference point, per scanner in `scanners` order: the mean loss over its windows (a
    /// window that did not hear the scanner counts as `notHeardLoss`), nil when it never heard it.
    private let losses: [[Double?]]
    /// Index in the points given → index in `points`, for the points kept.
    private let keptIndex: [Int: Int]
    /// The loss a scanner that did not hear stands for, dB.
    public let notHeardLoss: Double

    /// Keeps the reference points with at least one window that heard a scanner.
    public init(points: [TagReferencePoint], settings: Settings = Settings()) {
        self.settings = settings
        let keptIndices = points.indices.filter { points[$0].windows.contains { !$0.isEmpty } }
        let kept = keptIndices.map { points[$0] }
        keptIndex = Dictionary(uniqueKeysWithValues: keptIndices.enumerated().map { ($1, $0) })
        let scanners = Set(kept.flatMap { $0.windows.flatMap(\.keys) }).sorted()
        let largest = kept.flatMap { $0.windows.flatMap(\.values) }.filter(\.isFinite).max() ?? 0
        let notHeard = largest + settings.notHeardMargin
        self.points = kept
        self.scanners = scanners
        self.notHeardLoss = notHeard
        losses = kept.map { point in
            let heard = point.windows.filter { !$0.isEmpty }
            return scanners.map { scanner in
                guard heard.contains(where: { $0[scanner] != nil }) else { return nil }
                return heard.map { $0[scanner] ?? notHeard }.reduce(0, +) / Double(heard.count)
            }
        }
    }

    public var isEmpty: Bool { points.isEmpty }

    /// The position from what the scanners read of the tag (scanner → path loss, dB); nil when the
    /// map is empty or none of the scanners is in it. The accuracy is the weighted spread of the
    /// chosen points around the position, at least ``Settings/minimumAccuracy``.
    /// `excluding` leaves one reference point out (its index in the points given), as when the
    /// survey measures itself.
    public func locate(_ query: [String: Double], excluding: Int? = nil) -> PositionEstimate? {
        let heard = scanners.map { query[$0].flatMap { $0.isFinite ? $0 : nil } }
        guard heard.contains(where: { $0 != nil }) else { return nil }
        let scores = losses.map { difference(heard, $0) }
        let ranked = scores.indices.filter { $0 != excluding.flatMap { keptIndex[$0] } }.sorted { scores[$0] < scores[$1] }
        guard let best = ranked.first else { return nil }
        let floorID = points[best].floorID
        let chosen = ranked.lazy.filter { self.points[$0].floorID == floorID }.prefix(max(settings.k, 1))
        let centre = WeightedCentroid(chosen.map { (points[$0].x, points[$0].y, 1 / (scores[$0] + 1)) })
        let accuracy = max(centre.spread, settings.minimumAccuracy)
        return PositionEstimate(floorID: floorID, x: centre.x, y: centre.y, accuracyMetres: accuracy, method: Self.methodName)
    }

    /// Root-mean-square difference, dB, over the scanners heard by the query or at the point.
    private func difference(_ query: [Double?], _ point: [Double?]) -> Double {
        var sum = 0.0, count = 0
        for (q, p) in zip(query, point) where q != nil || p != nil {
            let d = (q ?? notHeardLoss) - (p ?? notHeardLoss)
            sum += d * d
            count += 1
        }
        return (sum / Double(max(count, 1))).squareRoot()
    }
}
