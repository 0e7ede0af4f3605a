import Foundation

/// Starts children one at a time across the whole test process. Foundation's `Process.run()` on
/// Linux closes, in the child, the descriptors open when it lists them; a pipe another thread
/// makes meanwhile leaks into that child, and the pipe's reader then waits for the end of file
/// until that unrelated child exits too. Launching is quick; waiting for children stays parallel.
enum ProcessLaunch {
    private static let lock = NSLock()

    /// Runs `process`, with no other launch of this process's children in between.
    ///
    /// - Throws: what `Process.run()` throws when the program cannot be started.
    static func run(_ process: Process) throws {
        try lock.withLock { try process.run() }
    }
}
