import DaemonSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// The bearer token scannerd sends switchd (`--token-file`): a `scanner` token issued for this
/// scanner's ID. Its description is redacted so no log line or error can carry it.
struct SwitchdToken: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    private let secret: String

    init(_ secret: String) {
        self.secret = secret
    }

    var description: String { "<redacted bearer token>" }
    var debugDescription: String { description }

    /// The `Authorization` header value.
    var authorization: String { "Bearer \(secret)" }

    /// The token in `path`: its first line, spaces trimmed. A token is read from a file, never
    /// taken on the command line, where any user could read it in the process list.
    ///
    /// - Throws: ``SwitchdTokenError`` naming the file when it cannot be read or holds no token.
    static func read(from path: String) throws -> SwitchdToken {
        do {
            return SwitchdToken(try TokenFileText.read(path))
        } catch {
            throw SwitchdTokenError(path: path, reason: error.description)
        }
    }
}

struct SwitchdTokenError: Error, CustomStringConvertible {
    var path: String
    var reason: String

    var description: String { "--token-file \(path) \(reason)" }
}
