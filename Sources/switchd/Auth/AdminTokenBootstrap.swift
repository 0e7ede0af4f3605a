import Foundation
import ScanContract
import SwitchdStore

/// Makes sure switchd can be administered when it starts: an admin token from
/// `--admin-token-file`, or one it makes itself in `<state-dir>/admin.token`.
enum AdminTokenBootstrap {
    static let fileName = "admin.token"
    /// The name a token from `--admin-token-file` is stored under.
    static let configuredName = "admin (--admin-token-file)"
    /// The name of the token switchd makes itself.
    static let generatedName = "admin (first start)"

    enum Outcome: Equatable, Sendable {
        /// The configured file's token is stored (now or before) as an admin token.
        case configured(path: String)
        /// No admin token could be used, so switchd made one and wrote it here.
        case created(path: String)
        /// An admin token exists; nothing was made.
        case existing
    }

    /// With `configuredFile`, reads it and stores its token as an admin token unless stored;
    /// without, when no active admin token exists, issues one and writes it to
    /// `<stateDirectory>/admin.token` with mode 0600.
    ///
    /// - Throws: ``TokenFileError`` when a file cannot be read or written, and
    ///   ``AdminTokenError`` when the configured token is stored with another role or revoked.
    static func run(database: AppDatabase, stateDirectory: String, configuredFile: String?, now: Date = Date()) async throws -> Outcome {
        if let configuredFile {
            let token = try TokenFile.read(configuredFile)
            if let stored = try await database.tokenInfo(for: token) {
                guard stored.role == .admin else { throw AdminTokenError(path: configuredFile, reason: "it is a \(stored.role.rawValue) token") }
                guard stored.revoked == nil else { throw AdminTokenError(path: configuredFile, reason: "it was revoked (token \(stored.id))") }
            } else {
                _ = try await database.issueToken(NewToken(name: configuredName, role: .admin), token: token, at: now)
            }
            return .configured(path: configuredFile)
        }
        guard try await !database.hasActiveAdminToken() else { return .existing }
        let path = URL(fileURLWithPath: stateDirectory).appendingPathComponent(fileName).path
        let token = BearerToken.generate()
        // The file first: a token stored but never written would lock the operator out.
        try TokenFile.write(token, to: path)
        _ = try await database.issueToken(NewToken(name: generatedName, role: .admin), token: token, at: now)
        return .created(path: path)
    }
}

struct AdminTokenError: Error, CustomStringConvertible {
    var path: String
    var reason: String

    var description: String { "--admin-token-file \(path) cannot be used as the admin token: \(reason)" }
}
