import ArgumentParser

/// `scannerd evaluate …`: runs a positioning method over a public dataset in its own format and
/// prints the metrics as one JSON object.
struct EvaluateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Measure a positioning method on a public dataset; prints JSON metrics.",
        subcommands: [UJIIndoorLocEvaluation.self, BLEAnnotatedCommand.self, SpachosCommand.self]
    )
}
