import Evaluation
import Foundation
import Positioning

/// BLE_calib2021 as a tag-tracking scene: its 6 anchors are the fixed scanners, the
/// robot-carried tag the tag. Training: the 4,104 robot stops of the radio-map survey (the model
/// fit reads all; at most `calibrationPoints` of them, evenly spaced, are surveyed into switchd:
/// registered beacons heard by the anchors, its fingerprints and calibration). Scored: the 719 scans of the separate test run, in order, each one window (scans
/// within one TIMESTAMP second are spread evenly over it).
struct CalibTagReplay {
    var calibrationPoints = 5_000

    /// One scan of `train.csv` / `test.csv` (UJIIndoorLoc layout): RSSI per anchor (nil: not heard).
    struct Scan {
        var rssi: [Double?]
        var x: Double
        var y: Double
        var timestamp: Double
    }

    /// The UJIIndoorLoc layout's "not detected".
    static let notDetected = 100.0

    /// Reads `anchors.csv`, `train.csv` and `test.csv` from the folder.
    ///
    /// - Throws: ``DatasetFile/ReadError`` naming the file and line that does not parse.
    static func load(_ folder: String) throws -> (anchors: [TagReplayScene.Receiver], train: [Scan], test: [Scan]) {
        let anchorRows = try rows(folder + "/anchors.csv")
        let anchors = try anchorRows.body.enumerated().map { line, fields in
            guard fields.count == 4, let x = Double(fields[1]), let y = Double(fields[2]), let z = Double(fields[3]) else {
                throw DatasetFile.ReadError(description: "\(folder)/anchors.csv line \(line + 2): expected id,x,y,z")
            }
            return TagReplayScene.Receiver(name: "anchor\(fields[0])", x: x, y: y, z: z)
        }
        return (anchors, try scans(folder + "/train.csv", anchors: anchors.count), try scans(folder + "/test.csv", anchors: anchors.count))
    }

    private static func rows(_ path: String) throws -> (header: [String], body: [[String]]) {
        let text = String(decoding: try DatasetFile.contents(of: path), as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { throw DatasetFile.ReadError(description: "\(path) is empty") }
        return (header, Array(lines.dropFirst()))
    }

    private static func scans(_ path: String, anchors: Int) throws -> [Scan] {
        let (header, body) = try rows(path)
        guard let xColumn = header.firstIndex(of: "LONGITUDE"), let yColumn = header.firstIndex(of: "LATITUDE"),
              let timeColumn = header.firstIndex(of: "TIMESTAMP") else {
            throw DatasetFile.ReadError(description: "\(path): no LONGITUDE, LATITUDE or TIMESTAMP column")
        }
        return try body.enumerated().map { line, fields in
            let values = fields.map(Double.init)
            guard values.count == header.count, values.allSatisfy({ $0 != nil }) else {
                throw DatasetFile.ReadError(description: "\(path) line \(line + 2): expected \(header.count) numbers")
            }
            let numbers = values.map { $0 ?? 0 }
            return Scan(
                rssi: numbers.prefix(anchors).map { $0 == notDetected ? nil : $0 }, x: numbers[xColumn], y: numbers[yColumn],
                timestamp: numbers[timeColumn]
            )
        }
    }

    func scene(anchors: [TagReplayScene.Receiver], train: [Scan], test: [Scan]) throws -> TagReplayScene {
        func heard(_ scan: Scan) -> [Int: SightingWindow] {
            var heard: [Int: SightingWindow] = [:]
            for (index, rssi) in scan.rssi.enumerated() {
                guard let rssi else { continue }
                heard[index, default: SightingWindow()].add(rssi)
            }
            return heard
        }
        // The robot carries the tag at one height; no stop records it, so the fit chooses it.
        let all = train.map { TagReplayScene.CalibrationPoint(x: $0.x, y: $0.y, z: 0, windows: [heard($0)]) }
        let model = try TagModelFit.choose(all, receivers: anchors, statistic: .median)
        let step = max(train.count / calibrationPoints, 1)
        let calibration = stride(from: 0, to: all.count, by: step).prefix(calibrationPoints).map { index in
            var point = all[index]
            point.z = model.tagHeight
            return point
        }
        var windows: [TagReplayScene.Window] = []
        let seconds = Dictionary(grouping: test.indices, by: { test[$0].timestamp })
        for (index, scan) in test.enumerated() {
            let group = seconds[scan.timestamp] ?? [index]
            let share = 1 / Double(group.count), position = Double(group.firstIndex(of: index) ?? 0)
            windows.append(TagReplayScene.Window(
                end: scan.timestamp + (position + 1) * share, length: share, heard: heard(scan), truthX: scan.x, truthY: scan.y
            ))
        }
        return TagReplayScene(receivers: anchors, model: model, calibration: calibration, windows: windows)
    }

    /// The training run cut into `folds` contiguous stretches for ``TagSettingsSelection``,
    /// nothing of the test run read: each stretch held out is one track (its scans in order,
    /// timed as the test run's are), the others the map.
    func selectionPart(anchors: [TagReplayScene.Receiver], train: [Scan], folds: Int = 5) throws -> TagSettingsSelection.Part {
        let scene = try scene(anchors: anchors, train: train, test: train)
        let size = (train.count + folds - 1) / folds
        let stops = train.indices.map { TagReplayScene.CalibrationPoint(x: train[$0].x, y: train[$0].y, z: 0, windows: [scene.windows[$0].heard]) }
        return TagSettingsSelection.Part(
            name: "BLE_calib2021 training run (\(folds) stretches)", receivers: anchors,
            models: try TagSettingsSelection.Part.models(stops, receivers: anchors), mapAtFittedHeight: true,
            folds: (0..<folds).map { f in
                let held = (f * size)..<min((f + 1) * size, train.count)
                let map = train.indices.filter { !held.contains($0) }.map { index in
                    TagReplayScene.CalibrationPoint(x: train[index].x, y: train[index].y, z: scene.model.tagHeight, windows: [scene.windows[index].heard])
                }
                return TagSettingsSelection.Fold(map: map, tracks: [Array(scene.windows[held])])
            }
        )
    }
}
