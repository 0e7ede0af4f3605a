import Evaluation
import Foundation
import Positioning
import ScanContract

/// `floorscan-evaluate spachos` on the Raspberry Pi + iBeacon dataset of Sadowski, Spachos and
/// Plataniotis: fingerprints and test points as per-point mean RSSI from the BLE sheets. The
/// fingerprint's k is chosen by leave-one-out over the fingerprint points; trilateration (scenario
/// 3 only: the other scenarios' transmitter positions are unreliable) uses a path-loss model
/// fitted either on the Pathloss sheet or on the fingerprint points, whichever locates the
/// fingerprint points better.
struct SpachosEvaluation {
    var scenario: Int

    struct Data {
        var fingerprints: [SpachosRSSI.Point]
        var tests: [SpachosRSSI.Point]
        var pathLoss: [PathLossSample]
    }

    static func load(_ folder: String, scenario: Int) throws -> Data {
        func sheet(_ name: String) throws -> [[SpreadsheetCell]] {
            let path = "\(folder)/Scenario\(scenario)/\(name)_Scenario\(scenario).xlsx"
            do {
                return try XLSXWorkbook(try DatasetFile.contents(of: path)).sheet("BLE")
            } catch {
                throw DatasetFile.ReadError(description: "\(path): \(error)")
            }
        }
        func parse<T>(_ name: String, _ parser: ([[SpreadsheetCell]]) throws(DatasetParseError) -> T) throws -> T {
            do {
                return try parser(try sheet(name))
            } catch let error as DatasetParseError {
                throw DatasetFile.ReadError(description: "\(name)_Scenario\(scenario).xlsx, sheet BLE: \(error)")
            }
        }
        return Data(
            fingerprints: try parse("Database", SpachosRSSI.points), tests: try parse("Tests", SpachosRSSI.points),
            pathLoss: try parse("Pathloss", SpachosRSSI.pathLoss)
        )
    }

    static func emitter(_ node: String) -> Emitter {
        .beacon(BeaconID(uuid: AnnotatedBLEEvaluation.receiverUUID, major: 1, minor: UInt16(SpachosRSSI.nodes.firstIndex(of: node) ?? 0)))
    }

    typealias Output = BLEEvaluationOutput<Details>

    struct Details: Encodable {
        var dataset = "rpi-ble-wifi-rssi-spachos"
        var scenario: Int
        var methods: [String: BLEMethodFigures]
        var settings: [String: String]
    }

    func run(_ data: Data, methods: [BLEMethodName]) throws -> Output {
        let locations = data.fingerprints.enumerated().map { index, point in
            RadioMapLocation(
                locationID: Int64(index + 1), floorID: 1, roomID: 1, x: point.x, y: point.y,
                emitters: point.rssi.map { EmitterFingerprint(emitter: Self.emitter($0.key), mean: $0.value, spread: 0, count: 1) }
            )
        }
        func window(_ point: SpachosRSSI.Point) -> [Emitter: Double] {
            Dictionary(uniqueKeysWithValues: point.rssi.map { (Self.emitter($0.key), $0.value) })
        }
        // k by leave-one-out over the fingerprint points.
        var looErrors: [Int: [Double]] = [:], looAccuracies: [Int: [Double]] = [:]
        for k in 1...7 {
            for (index, point) in data.fingerprints.enumerated() {
                var rest = locations
                rest.remove(at: index)
                guard let match = BLEFingerprint(locations: rest, settings: .init(k: k)).locate(window(point))?.estimate else { continue }
                looErrors[k, default: []].append(hypot(match.x - point.x, match.y - point.y))
                looAccuracies[k, default: []].append(match.accuracyMetres)
            }
        }
        func mean(_ v: [Double]) -> Double { v.isEmpty ? .infinity : v.reduce(0, +) / Double(v.count) }
        let k = (1...7).min { mean(looErrors[$0] ?? []) < mean(looErrors[$1] ?? []) } ?? 1
        let fingerprint = BLEFingerprint(locations: locations, settings: .init(k: k))
        var settings: [String: String] = [
            "fingerprintK": "\(k) (leave-one-out over the \(data.fingerprints.count) fingerprint points; mean errors \((1...7).map { String(format: "%.2f", mean(looErrors[$0] ?? [])) }.joined(separator: ", ")) for k = 1…7)",
            "queries": "test points, per-point mean RSSI from the Tests sheet",
        ]
        var pipeline = BLEPipeline(
            trilateration: BLETrilateration(settings: .init(height: 0)), anchors: [:], fingerprint: fingerprint
        )
        pipeline.fingerprintScale = BLEPipeline.accuracyScale(errors: looErrors[k] ?? [], accuracies: looAccuracies[k] ?? [])
        if scenario == 3 {
            let (anchors, chosen) = try trilaterationAnchors(data)
            pipeline.anchors = anchors
            settings["pathLoss"] = chosen
            settings["transmitters"] = "A (0, 0), B (9.625, 0), C (4.8125, 2.492), read off the dataset's figure"
            var errors: [Double] = [], accuracies: [Double] = []
            for point in data.fingerprints {
                guard let estimate = pipeline.estimates(window(point)).trilateration else { continue }
                errors.append(hypot(estimate.x - point.x, estimate.y - point.y))
                accuracies.append(estimate.accuracyMetres)
            }
            pipeline.trilaterationScale = BLEPipeline.accuracyScale(errors: errors, accuracies: accuracies)
        } else {
            settings["trilateration"] = "not run: the scenario's transmitter positions are not known reliably"
        }
        let queries = data.tests.enumerated().map { BLEQuery(window: window($1), x: $1.x, y: $1.y, time: Double($0), sequence: $0) }
        let run = BLEMethodRun(pipeline, queries: queries, filter: .init())
        // No time sequence here: each test point is one query, so filtering is not reported.
        let reported = methods.filter { $0 != .filtered && (scenario == 3 || $0 == .fingerprint || $0 == .fused) }
        let part = run.part("", methods: reported)
        let headlineMethod = reported.contains(.fused) ? BLEMethodName.fused : reported.first ?? .fingerprint
        let headline = part.methods[headlineMethod.rawValue] ?? BLEMethodFigures(errors: [])
        return Output(
            headline: headlineMethod.rawValue, figures: headline, msPerQuery: part.msPerQuery,
            details: Details(scenario: scenario, methods: part.methods, settings: settings)
        )
    }

    /// Scenario 3's transmitters with a path-loss model: the Pathloss sheet's fit (one node, all
    /// three assumed alike) or a per-node fit on the fingerprint points, whichever gives the
    /// lower mean trilateration error over the fingerprint points.
    private func trilaterationAnchors(_ data: Data) throws -> ([Emitter: RangingAnchor], String) {
        let sheetModel = try PathLossModel.fit(data.pathLoss)
        var samples: [Emitter: [PathLossSample]] = [:]
        for point in data.fingerprints {
            for (node, rssi) in point.rssi {
                guard let t = SpachosRSSI.scenario3Transmitters[node] else { continue }
                samples[Self.emitter(node), default: []].append(PathLossSample(distance: hypot(point.x - t.x, point.y - t.y), rssi: rssi))
            }
        }
        let calibration = try PathLossCalibration.fit(samples)
        func anchors(_ model: (Emitter) -> PathLossModel?) -> [Emitter: RangingAnchor] {
            var result: [Emitter: RangingAnchor] = [:]
            for (node, t) in SpachosRSSI.scenario3Transmitters {
                let emitter = Self.emitter(node)
                guard let m = model(emitter) else { continue }
                result[emitter] = RangingAnchor(emitter: emitter, floorID: 1, x: t.x, y: t.y, z: 0, model: m)
            }
            return result
        }
        let options = [
            (anchors { _ in sheetModel }, String(format: "Pathloss sheet fit: P1 %.1f dBm, n %.2f, sigma %.1f dB", sheetModel.powerAt1m, sheetModel.exponent, sheetModel.shadowingSigma)),
            (anchors(calibration.model(for:)), String(format: "fit on the fingerprint points: n %.2f, sigma %.1f dB, per-node P1", calibration.exponent, calibration.shadowingSigma)),
        ]
        let trilateration = BLETrilateration(settings: .init(height: 0))
        func trainingError(_ anchors: [Emitter: RangingAnchor]) -> Double {
            let errors = data.fingerprints.compactMap { point -> Double? in
                let readings = point.rssi.compactMap { node, rssi in anchors[Self.emitter(node)].map { AnchorReading(anchor: $0, rssi: rssi) } }
                return trilateration.locate(readings).map { hypot($0.x - point.x, $0.y - point.y) }
            }
            return errors.isEmpty ? .infinity : errors.reduce(0, +) / Double(errors.count)
        }
        let scored = options.map { ($0.0, $0.1, trainingError($0.0)) }
        let best = scored.min { $0.2 < $1.2 } ?? scored[0]
        return (best.0, best.1 + String(format: " (chosen: mean error on the fingerprint points %.2f m vs %@)", best.2, scored.map { String(format: "%.2f", $0.2) }.joined(separator: " / ")))
    }
}
