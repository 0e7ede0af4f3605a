import ArgumentParser

@main
struct ScannerdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scannerd",
        abstract: "The floorscan scanner daemon.",
        subcommands: [RunCommand.self, EvaluateCommand.self, DecodeCommand.self, ScanCommand.self],
        defaultSubcommand: RunCommand.self
    )
}
