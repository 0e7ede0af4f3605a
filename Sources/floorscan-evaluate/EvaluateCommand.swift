import ArgumentParser

/// `floorscan-evaluate …`: runs a positioning method over a public dataset in its own format and
/// prints the metrics as one JSON object (`suite`: one Markdown table over the fingerprint suite).
/// A lab tool: the daemons do not carry it.
@main
struct EvaluateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floorscan-evaluate",
        abstract: "Measure a positioning method on a public dataset; prints JSON metrics.",
        subcommands: [UJIIndoorLocEvaluation.self, SuiteCommand.self, LongTermCommand.self, SelectCommand.self, SpeedCurveCommand.self, BLEAnnotatedCommand.self, SpachosCommand.self, TagReplayCommand.self, TagSelectCommand.self]
    )
}
