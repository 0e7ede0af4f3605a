import Evaluation
import Foundation
import Positioning
import ScanContract

/// `floorscan-evaluate ble-annotated` on the Position Annotated BLE RSSI Dataset: each fixed
/// receiver is treated as an anchor of known position (the maths of a scanner hearing fixed
/// beacons). Three parts:
/// - walked tracks, trained on all surveyed points (sets 1 and 2);
/// - static points of set 2 located with a map of set 1 (another day), and the other way round.
struct AnnotatedBLEEvaluation {
    var trackWindow: Double
    var staticWindow: Double
    /// Validation windows kept per surveyed point in cross-validation (evenly spaced).
    var validationWindowsPerPoint = 20
    var candidates = BLEFingerprintCandidate.grid
    var filter = PositionKalmanFilter.Settings()

    struct Data {
        var receivers: [PositionAnnotatedBLE.Receiver]
        var points: [PositionAnnotatedBLE.SurveyPoint]
        var samples: [PositionAnnotatedBLE.SurveySample]
        var tracks: [(name: String, samples: [PositionAnnotatedBLE.TrackSample])]
        var dropped: Int
    }

    static let trackNames = [
        "straight_01", "straight_02", "straight_03", "straight_04", "straight_05",
        "rectangular_with_rotation", "rectangular_without_rotation", "zigzagging_with_rotation", "zigzagging_without_rotation",
    ]

    /// Reads the dataset folder; throws naming the file that is missing or malformed.
    static func load(_ folder: String) throws -> Data {
        func read<T>(_ path: String, _ parse: ([UInt8]) throws(DatasetParseError) -> T) throws -> T {
            do {
                return try parse(try DatasetFile.contents(of: folder + "/" + path))
            } catch let error as DatasetParseError {
                throw DatasetFile.ReadError(description: "\(folder)/\(path): \(error)")
            }
        }
        let receivers = try read("cnf/tetam.dev", PositionAnnotatedBLE.receivers)
        let points = try read("hst/hst_histograms.csv.gz", PositionAnnotatedBLE.surveyPoints)
        let samples = try read("hst/hst_first300s.csv.gz", PositionAnnotatedBLE.surveySamples)
        var dropped = samples.dropped
        var tracks: [(String, [PositionAnnotatedBLE.TrackSample])] = []
        for name in trackNames {
            let track = try read("trk/\(name)_all_sensors.mbd.gz", PositionAnnotatedBLE.track)
            dropped += track.dropped
            tracks.append((name, track.samples))
        }
        return Data(receivers: receivers, points: points, samples: samples.samples, tracks: tracks, dropped: dropped)
    }

    /// Receiver i is named as a beacon with this UUID, major 0 and minor i.
    static let receiverUUID = UUID(uuid: (0xF1, 0x00, 0x5C, 0xA0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0))

    typealias Output = BLEEvaluationOutput<Details>

    struct Details: Encodable {
        var dataset = "position-annotated-ble"
        var parts: [String: BLEPartResult]
        var training: [String: BLETrainingReport]
        var settings: [String: String]
        var droppedImpossibleRSSI: Int
    }

    func run(_ data: Data, methods: [BLEMethodName]) throws -> Output {
        let emitters = Dictionary(uniqueKeysWithValues: data.receivers.enumerated().map { index, receiver in
            (receiver.alias, Emitter.beacon(BeaconID(uuid: Self.receiverUUID, major: 0, minor: UInt16(index))))
        })
        let byMAC = Dictionary(uniqueKeysWithValues: data.receivers.compactMap { r in emitters[r.alias].map { (r.mac, $0) } })
        var positions: [Emitter: (x: Double, y: Double, z: Double)] = [:]
        for receiver in data.receivers { if let e = emitters[receiver.alias] { positions[e] = (receiver.x, receiver.y, receiver.z) } }

        // Per surveyed point: its location and its raw windows.
        let grouped = Dictionary(grouping: data.samples) { PointKey(set: $0.set, x: $0.x, y: $0.y, z: $0.z) }
        func trainingSet(_ points: [PositionAnnotatedBLE.SurveyPoint], window: Double) -> BLETrainingSet {
            var locations: [RadioMapLocation] = [], heights: [Double] = [], validation: [BLEQuery] = []
            for (index, point) in points.enumerated() {
                locations.append(location(point, index: index, emitters: emitters))
                heights.append(point.z)
                let windows = pointWindows(grouped[PointKey(point)] ?? [], emitters: emitters, seconds: window, sequence: index)
                let stride = max(windows.count / validationWindowsPerPoint, 1)
                validation += windows.enumerated().filter { $0.offset % stride == 0 }.prefix(validationWindowsPerPoint).map(\.element)
            }
            return BLETrainingSet(
                locations: locations, heights: heights, anchorPositions: positions, validation: validation,
                names: Dictionary(uniqueKeysWithValues: emitters.map { ($1, $0) })
            )
        }

        var parts: [String: BLEPartResult] = [:]
        var training: [String: BLETrainingReport] = [:]

        // Walked tracks.
        let (trackPipeline, trackReport) = try trainingSet(data.points, window: trackWindow).fit(candidates: candidates)
        var trackQueries: [BLEQuery] = []
        for (index, track) in data.tracks.enumerated() {
            let readings = track.samples.compactMap { s in byMAC[s.receiverMAC].map { (time: s.time, emitter: $0, rssi: s.rssi, x: s.x, y: s.y) } }
            trackQueries += BLEQuery.windows(readings, seconds: trackWindow, sequence: index)
        }
        let trackRun = BLEMethodRun(trackPipeline, queries: trackQueries, filter: filter)
        parts["tracks"] = trackRun.part("9 walked tracks, \(trackWindow) s windows; map and path loss from both survey sets", methods: methods)
        training["tracks"] = trackReport

        // Static points, another day.
        for (train, test) in [(1, 2), (2, 1)] {
            let (pipeline, report) = try trainingSet(data.points.filter { $0.set == train }, window: staticWindow).fit(candidates: candidates)
            var queries: [BLEQuery] = []
            for (index, point) in data.points.enumerated() where point.set == test {
                queries += pointWindows(grouped[PointKey(point)] ?? [], emitters: emitters, seconds: staticWindow, sequence: index)
            }
            let run = BLEMethodRun(pipeline, queries: queries, filter: filter)
            parts["static-train\(train)-test\(test)"] = run.part(
                "set \(test) points (first 300 s, \(staticWindow) s windows) located with set \(train)'s map; filtered = Kalman over each point's windows",
                methods: methods
            )
            training["static-train\(train)-test\(test)"] = report
        }

        let headlineMethod = methods.contains(.filtered) ? BLEMethodName.filtered : methods.first ?? .fused
        let headline = trackRun.part("", methods: [headlineMethod]).methods[headlineMethod.rawValue] ?? BLEMethodFigures(errors: [])
        return Output(headline: "tracks, \(headlineMethod.rawValue)", figures: headline, msPerQuery: BLEMethodFigures.rounded(trackRun.msPerQuery), details: Details(
            parts: parts, training: training,
            settings: [
                "trackWindowSeconds": "\(trackWindow)", "staticWindowSeconds": "\(staticWindow)",
                "selection": "fingerprint k and map interpolation chosen by 5-fold cross-validation over the training points (their first-300-s windows, \(validationWindowsPerPoint) per point); accuracy scales = RMS error / RMS reported accuracy in that cross-validation",
                "kalmanAccelerationNoise": "\(filter.accelerationNoise) m/s² (fixed a priori: walking)",
                "fusion": "inverse variance of the rescaled accuracy radii",
                "missingRSSI": "-100 dBm", "impossibleRSSI": "values >= 0 dBm dropped",
            ],
            droppedImpossibleRSSI: data.dropped
        ))
    }

    private struct PointKey: Hashable {
        var set: Int, x: Double, y: Double, z: Double
        init(set: Int, x: Double, y: Double, z: Double) { self.set = set; self.x = x; self.y = y; self.z = z }
        init(_ p: PositionAnnotatedBLE.SurveyPoint) { self.init(set: p.set, x: p.x, y: p.y, z: p.z) }
    }

    private func location(_ point: PositionAnnotatedBLE.SurveyPoint, index: Int, emitters: [String: Emitter]) -> RadioMapLocation {
        let fingerprints = point.receivers.compactMap { alias, stats in
            emitters[alias].map { EmitterFingerprint(emitter: $0, mean: stats.mean, spread: stats.spread, count: stats.count) }
        }.sorted { $0.mean > $1.mean }
        return RadioMapLocation(locationID: Int64(index + 1), floorID: 1, roomID: Int64(index + 1), x: point.x, y: point.y, emitters: fingerprints)
    }

    /// Complete windows within the first 300 s of a point's samples.
    private func pointWindows(_ samples: [PositionAnnotatedBLE.SurveySample], emitters: [String: Emitter], seconds: Double, sequence: Int) -> [BLEQuery] {
        let readings = samples.sorted { $0.time < $1.time }.compactMap { s in
            emitters[s.receiverAlias].map { (time: s.time, emitter: $0, rssi: s.rssi, x: s.x, y: s.y) }
        }
        let end = (300 / seconds).rounded(.down) * seconds
        return BLEQuery.windows(readings, seconds: seconds, sequence: sequence, origin: 0, until: end)
    }
}
