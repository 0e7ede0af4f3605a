#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// Writes a whole file the way a reader never sees half of it: a new file beside it, written,
/// flushed to disk, given its mode (and owner), then renamed over the old one.
enum ReplacedFile {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// Replaces `path` with `contents`, mode `mode`, owned by `owner` (a user name) when given.
    static func write(_ contents: String, to path: String, mode: mode_t, owner: (uid: uid_t, gid: gid_t)? = nil) throws(Failure) {
        let temporary = path + ".new-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(path: path, reason: "cannot write beside it: \(String(cString: strerror(errno)))") }
        var failure: String?
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if written != bytes.count { failure = "write: \(String(cString: strerror(errno)))" }
        // The mode again: open's is masked by the umask.
        if failure == nil, fchmod(fd, mode) != 0 { failure = "chmod: \(String(cString: strerror(errno)))" }
        if failure == nil, let owner, fchown(fd, owner.uid, owner.gid) != 0 { failure = "chown: \(String(cString: strerror(errno)))" }
        if failure == nil, fsync(fd) != 0 { failure = "fsync: \(String(cString: strerror(errno)))" }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = "rename: \(String(cString: strerror(errno)))" }
        if let failure {
            unlink(temporary)
            throw Failure(path: path, reason: failure)
        }
    }

    /// The mode of the file at `path`, or nil when there is none.
    static func mode(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// The user and group IDs of the user `name`, or nil when there is no such user.
    static func account(_ name: String) -> (uid: uid_t, gid: gid_t)? {
        guard let entry = getpwnam(name) else { return nil }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }
}
