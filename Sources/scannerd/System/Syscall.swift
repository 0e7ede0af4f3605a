// The system layer is written for Linux, the daemon's only platform; every system call of scannerd lives in this folder.
import Glibc

/// Runs system calls the way every caller here needs: retried while interrupted by a signal
/// (`EINTR`), and turned into a ``SystemError`` naming the call when they fail.
enum Syscall {
    /// Calls `body` until it does not fail with `EINTR`. A result of -1 throws with the `errno` left.
    @discardableResult
    static func retryingInterrupts<Result: BinaryInteger>(
        _ call: String, path: String? = nil, _ body: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemError(call: call, errno: code, path: path)
        }
    }
}
