import ArgumentParser
import DaemonSupport
import Logging

/// switchd: serves the scan switches, the survey and the measurements over HTTP (`serve`, the
/// default), and manages the bearer tokens of its state folder (`token`).
@main
struct SwitchdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchd", abstract: "Serves floorscan's scan switches, survey and measurements over HTTP.",
        subcommands: [ServeCommand.self, TokenCommand.self], defaultSubcommand: ServeCommand.self
    )

    /// `switchd [serve] --config FILE` reads the server's settings from the file first.
    static func main() async {
        await main(configuring: ServeCommand.self)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
