import ArgumentParser
import DaemonSupport

/// A daemon-like command with one of each kind of option, to read configuration files into.
struct SampleDaemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "sample-daemon")

    @OptionGroup var configFile: ConfigFileOption
    @Option(help: "Port to listen on.") var port = 8080
    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Offset, may be negative.") var offset = 0
    @Option(help: "Walking speed.") var speed = 1.4
    @Flag(inversion: .prefixedNo, help: "Follow the survey.") var follow = true
    @Flag(help: "Say more.") var verbose = false
    @Option(help: "Tags, one per option.") var tag: [String] = []
    @Option(help: "Output file, '-' for standard output.") var events: String?

    func validate() throws {
        guard (0...65_535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535, got \(port)")
        }
    }
}

/// A root command whose default subcommand takes `--config`, as `scannerd` and `scannerd run` do.
struct SampleRoot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample", subcommands: [SampleDaemon.self, SampleOther.self], defaultSubcommand: SampleDaemon.self
    )
}

struct SampleOther: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "other")
    @Option var port = 1
}
