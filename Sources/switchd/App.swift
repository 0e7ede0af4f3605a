import ArgumentParser
import Logging

/// switchd: serves the scan switches, the survey and the measurements over HTTP (`serve`, the
/// default), and manages the bearer tokens of its state folder (`token`).
@main
struct SwitchdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchd", abstract: "Serves floorscan's scan switches, survey and measurements over HTTP.",
        subcommands: [ServeCommand.self, TokenCommand.self], defaultSubcommand: ServeCommand.self
    )
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
