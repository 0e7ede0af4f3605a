import Foundation

/// Starts children one at a time across the whole test process. Foundation's `Process.run()`
/// on Linux is not safe to call from several threads at once: under many parallel launches it
/// crashed the test process inside `Process.run()` (a stray `memcpy`), and the descriptors it
/// closes in the child are the ones open when it looked, so a pipe another thread makes
/// meanwhile leaks into the child. Launching is quick; waiting for children stays parallel.
enum ProcessLaunch {
    private static let lock = NSLock()

    /// Runs `process`, with no other launch of this process's children in between.
    ///
    /// - Throws: what `Process.run()` throws when the program cannot be started.
    static func run(_ process: Process) throws {
        try lock.withLock { try process.run() }
    }
}
