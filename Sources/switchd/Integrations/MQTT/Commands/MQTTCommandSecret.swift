import Crypto
import DaemonSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The key MQTT commands are signed with (`--mqtt-command-secret-file`): shared with whoever may
/// command over MQTT, never put on the broker, and no bearer token (it opens no HTTP route: the
/// API looks tokens up in the token table, where this never is). Its description hides it, so
/// no log line or error message can carry it.
struct MQTTCommandSecret: Sendable, CustomStringConvertible, CustomReflectable {
    /// Shorter secrets are refused: 32 characters are 128 bits even as hex.
    static let minimumLength = 32

    /// The secret's bytes (its text as UTF-8), kept as bytes: `SymmetricKey` is not `Sendable`.
    private let bytes: [UInt8]

    /// The HMAC key.
    var key: SymmetricKey { SymmetricKey(data: bytes) }

    /// A secret from its text (the file's first line); tests make theirs here.
    ///
    /// - Throws: ``MQTTSettingsError`` when it is too short or is a switchd bearer token.
    init(_ text: String) throws {
        guard text.utf8.count >= Self.minimumLength else {
            throw MQTTSettingsError("holds \(text.utf8.count) characters; a command secret needs at least \(Self.minimumLength) (make one with: openssl rand -hex 32)")
        }
        guard !text.hasPrefix(BearerToken.prefix) else {
            throw MQTTSettingsError("holds a switchd bearer token; the command secret must be its own secret, never an HTTP token (make one with: openssl rand -hex 32)")
        }
        bytes = Array(text.utf8)
    }

    var description: String { "MQTTCommandSecret(hidden)" }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The secret in the file at `path`: its first line, spaces trimmed (as the token files).
    /// The file must not be writable by its group nor open to other users at all (0600, or
    /// 0640 with the group switchd runs as).
    ///
    /// - Throws: ``MQTTSettingsError`` naming the option and the path when the file cannot be
    ///   read, is open to others, or holds no usable secret.
    static func read(_ path: String) throws -> MQTTCommandSecret {
        func failure(_ reason: String) -> MQTTSettingsError {
            MQTTSettingsError("--mqtt-command-secret-file \(path): \(reason)")
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw failure("cannot be read: stat: \(String(cString: strerror(errno)))")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o027 == 0 else {
            throw failure("mode \(String(mode, radix: 8)) lets other users read or change it; make it 0600 or 0640 (chmod 600 \(path))")
        }
        let text: String
        do {
            text = try TokenFileText.read(path)
        } catch {
            throw failure(error.description)
        }
        do {
            return try MQTTCommandSecret(text)
        } catch let error as MQTTSettingsError {
            throw failure(error.description)
        }
    }
}
