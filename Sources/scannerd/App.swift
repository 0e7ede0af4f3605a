import ArgumentParser
import DaemonSupport

@main
struct ScannerdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scannerd",
        abstract: "The floorscan scanner daemon.",
        subcommands: [RunCommand.self, DecodeCommand.self, ScanCommand.self, SpoolCommand.self, TrackCommand.self, BenchCommand.self],
        defaultSubcommand: RunCommand.self
    )

    /// `scannerd run --config FILE` reads its settings from the file first.
    static func main() async {
        await main(configuring: RunCommand.self)
    }
}
