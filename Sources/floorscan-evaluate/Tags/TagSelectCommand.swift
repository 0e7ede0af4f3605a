import ArgumentParser
import Evaluation
import Foundation

/// `floorscan-evaluate tags-select --position-annotated DIR --ble-calib2021 DIR`: chooses
/// switchd's tag-tracking settings by cross-validation inside the training parts of both
/// fixed-receiver datasets (``TagSettingsSelection``) and prints every candidate's scores and
/// the choice as one JSON object. Reads no scored part. `--round fourth` (the default) adds
/// simulated walks that turn as a fourth training part.
struct TagSelectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags-select",
        abstract: "Choose the tag tracker's RSSI statistic, fusion weight, outlier rule and Kalman noise by cross-validation on the fixed-receiver datasets' training parts."
    )

    @Option(name: .customLong("position-annotated"), help: "The position-annotated-ble folder.")
    var positionAnnotated: String

    @Option(name: .customLong("ble-calib2021"), help: "The fingerprint-suite/BLE_calib2021 folder.")
    var bleCalib2021: String

    @Option(help: "Which pre-registered selection: third (statistic, fusion weight, outlier rule, noise) or fourth (the noise, with simulated walks that turn).")
    var round: TagSettingsSelection.Round = .fourth

    func run() async throws {
        var parts = try AnnotatedTagReplay().selectionParts(try AnnotatedBLEEvaluation.load(positionAnnotated))
        let (anchors, train, _) = try CalibTagReplay.load(bleCalib2021)
        parts.append(try CalibTagReplay().selectionPart(anchors: anchors, train: train))
        if round == .fourth { parts.append(try SimulatedTagReplay.selectionPart()) }
        try printJSONObject(TagSettingsSelection(candidates: round.candidates).select(parts))
    }
}

extension TagSettingsSelection.Round: ExpressibleByArgument {}
