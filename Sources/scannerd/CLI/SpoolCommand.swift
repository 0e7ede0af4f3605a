import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// `scannerd spool …`: operator commands on a stopped scannerd's spool.
struct SpoolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spool",
        abstract: "Work on the spool of a stopped scannerd.",
        subcommands: [SpoolRequeueCommand.self]
    )
}

/// `scannerd spool requeue`: sends the batches switchd refused once more.
struct SpoolRequeueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requeue",
        abstract: "Move every batch in the spool's rejected/ folder back to ready/, to be uploaded on scannerd's next start.",
        discussion: "Stop scannerd first (systemctl stop scannerd): the command takes the state directory's lock and refuses while scannerd holds it."
    )

    @Option(name: .customLong("state-dir"), help: "scannerd's state directory, as given to scannerd run.")
    var stateDirectory: String = ScannerdConfiguration.defaultStateDirectory

    func run() throws {
        let lock: DirectoryLock
        switch Result(catching: { () throws(SystemError) in try DirectoryLock(path: ScannerdConfiguration.lockPath(in: stateDirectory)) }) {
        case .success(let taken):
            lock = taken
        case .failure(let error) where error.errno == EWOULDBLOCK:
            throw ValidationError("scannerd is running with the state directory \(stateDirectory); stop it first, then requeue")
        case .failure(let error):
            throw error
        }
        defer { withExtendedLifetime(lock) {} }
        let layout = SpoolLayout(root: ScannerdConfiguration.spoolDirectory(in: stateDirectory))
        let moved = try layout.requeueRejected()
        print("re-queued \(moved.count) rejected batch\(moved.count == 1 ? "" : "es") into \(layout.ready)")
        for batch in moved {
            print(batch.batchID.uuidString)
        }
    }
}
