import Glibc

/// An exclusive `flock` on a file, held until this value is released or the process dies (the
/// kernel drops it then, so a killed daemon never leaves a stale lock).
final class DirectoryLock: Sendable {
    private let descriptor: FileDescriptor
    let path: String

    /// Takes the lock without waiting. Throws ``SystemError`` with `EWOULDBLOCK` when another
    /// process holds it.
    init(path: String) throws(SystemError) {
        self.path = path
        let descriptor = try FileDescriptor.open(path, .append)
        do {
            try Syscall.retryingInterrupts("flock", path: path) { flock(descriptor.rawValue, LOCK_EX | LOCK_NB) }
        } catch {
            try? descriptor.close() // The lock failure is what matters to the caller.
            throw error
        }
        self.descriptor = descriptor
    }

    deinit {
        // Closing releases the lock; the descriptor is ours alone, so a failure changes nothing.
        try? descriptor.close()
    }
}
