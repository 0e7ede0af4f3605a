import DaemonSupport
import Foundation
import ScanContract
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file holding one bearer token: `<state-dir>/admin.token`, `--admin-token-file`.
enum TokenFile {
    /// Writes `token` and a newline to `path`, replacing any file there. The file is created
    /// with mode 0600 (never wider, whatever the umask), so the secret is not readable by others
    /// even for a moment.
    ///
    /// - Throws: ``TokenFileError`` naming the path, the call and errno when it cannot be written.
    static func write(_ token: BearerToken, to path: String) throws {
        if unlink(path) != 0, errno != ENOENT {
            throw TokenFileError(path: path, reason: "cannot replace it: unlink: \(String(cString: strerror(errno)))")
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TokenFileError(path: path, reason: "cannot create it: open: \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data((token.secret + "\n").utf8))
            try handle.synchronize()
            try handle.close()
        } catch {
            throw TokenFileError(path: path, reason: "cannot write it: \(error.localizedDescription)")
        }
    }

    /// The token in `path`: its first line, spaces trimmed.
    ///
    /// - Throws: ``TokenFileError`` when the file cannot be read or holds no token.
    static func read(_ path: String) throws -> BearerToken {
        do {
            return BearerToken(try TokenFileText.read(path))
        } catch {
            throw TokenFileError(path: path, reason: error.description)
        }
    }
}

struct TokenFileError: Error, CustomStringConvertible {
    var path: String
    var reason: String

    var description: String { "token file \(path): \(reason)" }
}
