import ArgumentParser
import Foundation

/// `floorscan-evaluate ble-annotated --data DIR`: BLE trilateration, fingerprint, fusion and
/// Kalman filtering on the Position Annotated BLE RSSI Dataset; prints one JSON object.
struct BLEAnnotatedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble-annotated",
        abstract: "BLE positioning on the Position Annotated BLE RSSI Dataset (walked tracks and static points of another day)."
    )

    @Option(help: "The dataset folder (holding cnf/, hst/, trk/).")
    var data: String

    @Option(name: .customLong("window-seconds"), help: "Window length for the walked tracks, seconds.")
    var windowSeconds: Double = 2

    @Option(name: .customLong("static-window-seconds"), help: "Window length for the static points, seconds.")
    var staticWindowSeconds: Double = 5

    @Option(help: "Method to report: trilateration, fingerprint, fused, filtered or all.")
    var method: String = "all"

    func validate() throws {
        guard windowSeconds > 0, staticWindowSeconds > 0, staticWindowSeconds <= 300 else {
            throw ValidationError("--window-seconds must be more than 0 and --static-window-seconds between 0 and 300")
        }
        _ = try methods()
    }

    func methods() throws -> [BLEMethodName] {
        if method == "all" { return BLEMethodName.allCases }
        guard let one = BLEMethodName(rawValue: method) else {
            throw ValidationError("--method must be one of all, \(BLEMethodName.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(method)\"")
        }
        return [one]
    }

    func run() throws {
        let dataset = try AnnotatedBLEEvaluation.load(data)
        let evaluation = AnnotatedBLEEvaluation(trackWindow: windowSeconds, staticWindow: staticWindowSeconds)
        try printJSONObject(try evaluation.run(dataset, methods: try methods()))
    }
}
