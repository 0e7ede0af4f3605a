import Glibc

/// A failed system call: which call, on which path, and the `errno` it left.
struct SystemError: Error, CustomStringConvertible {
    /// The call's name as in its man page: `open`, `write`, `fsync`, `rename`, …
    let call: String
    let errno: CInt
    /// The file or directory the call was about, when there is one.
    let path: String?

    var description: String {
        let what = path.map { "\(call)(\($0))" } ?? call
        return "\(what) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
