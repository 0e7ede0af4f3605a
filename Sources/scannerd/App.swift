import ArgumentParser
import Dispatch
import DaemonSupport

struct ScannerdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scannerd",
        abstract: "The floorscan scanner daemon.",
        subcommands: [RunCommand.self, DecodeCommand.self, ScanCommand.self, SpoolCommand.self, TrackCommand.self, BenchCommand.self, EnrolCommand.self],
        defaultSubcommand: RunCommand.self
    )
}

/// scannerd's entry. `scannerd run --config FILE` reads its settings from the file first.
/// Transparent huge pages go off first, before threads touch their stacks
/// (``TransparentHugePages``); if the kernel refuses, scannerd runs with them as they are.
///
/// The main thread waits for the command to end rather than being an async `main`: that one
/// leaves the main thread through `dispatch_main`, whose `pthread_exit` unwinds it frame by frame
/// through the unwind tables, and the pages of those tables then stay resident in a daemon that
/// never unwinds again (about 0.5 MB of a Pi's idle RSS; README "On a Raspberry Pi").
@main
enum ScannerdEntry {
    static func main() {
        _ = TransparentHugePages.disableForThisProcess()
        let ended = DispatchSemaphore(value: 0)
        // Detached: `main` is on the main actor, whose queue the waiting main thread never drains.
        Task.detached {
            await ScannerdCommand.main(configuring: RunCommand.self)
            ended.signal()
        }
        ended.wait()
    }
}
