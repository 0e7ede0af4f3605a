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

    /// `scannerd run --config FILE` reads its settings from the file first. Transparent huge pages
    /// go off first, before threads touch their stacks (``TransparentHugePages``); if the kernel
    /// refuses, scannerd runs with them as they are.
    static func main() async {
        _ = TransparentHugePages.disableForThisProcess()
        await main(configuring: RunCommand.self)
    }
}
