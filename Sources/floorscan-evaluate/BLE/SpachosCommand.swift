import ArgumentParser

/// `floorscan-evaluate spachos --data DIR [--scenario 3]`: BLE fingerprint, trilateration and
/// fusion on the Raspberry Pi + iBeacon dataset; prints one JSON object.
struct SpachosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spachos",
        abstract: "BLE positioning on the Sadowski–Spachos Raspberry Pi RSSI dataset (per-point means)."
    )

    @Option(help: "The dataset folder (holding Scenario1/ … Scenario3/).")
    var data: String

    @Option(help: "Scenario 1, 2 or 3 (trilateration only in 3).")
    var scenario: Int = 3

    @Option(help: "Method to report: trilateration, fingerprint, fused or all.")
    var method: String = "all"

    func validate() throws {
        guard (1...3).contains(scenario) else { throw ValidationError("--scenario must be 1, 2 or 3, got \(scenario)") }
        guard method == "all" || BLEMethodName(rawValue: method) != nil else {
            throw ValidationError("--method must be all, trilateration, fingerprint or fused, got \"\(method)\"")
        }
    }

    func run() throws {
        let methods = method == "all" ? BLEMethodName.allCases : BLEMethodName(rawValue: method).map { [$0] } ?? []
        let dataset = try SpachosEvaluation.load(data, scenario: scenario)
        try printJSONObject(try SpachosEvaluation(scenario: scenario).run(dataset, methods: methods))
    }
}
