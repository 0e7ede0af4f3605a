import ArgumentParser
import Evaluation
import Foundation
import Harness

/// `floorscan-evaluate tags --dataset NAME --data DIR`: replays a fixed-receiver dataset through
/// a real switchd (started here, on loopback, in a temporary folder) as fixed scanners' sightings,
/// once without and once with per-scanner calibration, and prints the errors of the positions
/// switchd answered as one JSON object.
struct TagReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "Tag tracking from fixed scanners, replayed through switchd (position-annotated-ble, ble-calib2021, or simulated receivers that differ)."
    )

    enum Dataset: String, ExpressibleByArgument, CaseIterable {
        case positionAnnotated = "position-annotated-ble"
        case bleCalib2021 = "ble-calib2021"
        /// ``SimulatedTagReplay``: receivers that differ by several dB; no folder.
        case simulated
    }

    @Option(help: "position-annotated-ble, ble-calib2021 or simulated.")
    var dataset: Dataset

    @Option(help: "The dataset folder (not for simulated).")
    var data: String?

    @Option(name: .customLong("static-windows-per-point"), help: "position-annotated-ble: windows scored per static point (default all).")
    var staticWindowsPerPoint: Int?

    func run() async throws {
        guard dataset == .simulated || data != nil else { throw ValidationError("--data is required for \(dataset.rawValue)") }
        try printJSONObject(try await TagReplayEvaluation.run(dataset, folder: data ?? "", staticWindowsPerPoint: staticWindowsPerPoint))
    }
}

/// Loads a dataset, builds its scenes and replays each without and with calibration through a
/// switchd from ``Binaries`` (`$FLOORSCAN_BIN_DIR`, or beside this executable).
enum TagReplayEvaluation {
    struct Part: Encodable {
        var settings: TagModelFit
        var windows: Int
        var withoutCalibration: TagReplayDriver.Result
        var withCalibration: TagReplayDriver.Result
    }

    struct Output: Encodable {
        var dataset: String
        var parts: [String: Part]
    }

    /// - Throws: when the data cannot be read, switchd does not start, or it refuses a request.
    static func run(_ dataset: TagReplayCommand.Dataset, folder: String, staticWindowsPerPoint: Int? = nil, tracks: Int? = nil) async throws -> Output {
        let scenes: [(name: String, scene: TagReplayScene)]
        switch dataset {
        case .positionAnnotated:
            var replay = AnnotatedTagReplay()
            replay.staticWindowsPerPoint = staticWindowsPerPoint
            replay.tracks = tracks
            scenes = try replay.scenes(try AnnotatedBLEEvaluation.load(folder))
        case .bleCalib2021:
            let (anchors, train, test) = try CalibTagReplay.load(folder)
            scenes = [("test-run", try CalibTagReplay().scene(anchors: anchors, train: train, test: test))]
        case .simulated:
            scenes = [("simulated", SimulatedTagReplay().scene())]
        }
        let temporary = try TemporaryFolder("tag-replay")
        defer { temporary.remove() }
        let switchd = try await SwitchdInstance.start(in: temporary)
        var parts: [String: Part] = [:]
        do {
            for (name, scene) in scenes {
                let client = switchd.adminClient()
                let without = try await TagReplayDriver(client: client, label: "\(name)-raw").run(scene, calibrate: false)
                let with = try await TagReplayDriver(client: client, label: "\(name)-cal").run(scene, calibrate: true)
                parts[name] = Part(settings: scene.model, windows: scene.windows.count, withoutCalibration: without, withCalibration: with)
            }
        } catch {
            await switchd.process.kill()
            throw error
        }
        await switchd.process.kill()
        return Output(dataset: dataset.rawValue, parts: parts)
    }
}
