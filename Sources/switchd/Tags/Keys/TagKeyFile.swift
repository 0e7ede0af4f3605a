import Crypto
import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `<state-dir>/tag-keys.key`: the 32 random bytes (64 hex digits and a newline) under which
/// switchd seals phones' keys in its store (``TagKeySealer``). Made with mode 0600 on the first
/// start that finds none; every switchd on one PostgreSQL database needs the same file.
enum TagKeyFile {
    static let name = "tag-keys.key"

    /// Logs an error when some of the phones' keys stored (`sealed`) do not open under `sealer`:
    /// this switchd's file is not the one they were sealed under (another instance on the same
    /// PostgreSQL database with a file of its own, or a file lost and made anew). Those phones are
    /// listed but not followed through this switchd until the file is put right.
    static func checkOpens(_ sealed: [String: String], with sealer: TagKeySealer, stateDirectory: String, logger: Logger) {
        let unopened = sealer.opening(sealed).unopened
        guard unopened > 0 else { return }
        logger.error("Phone keys in the store do not open under this switchd's tag-keys.key: those phones are not followed through it. Every switchd on one database needs the same file (copy it from the instance that made it); if it is lost, register the phones again", metadata: [
            "file": "\(stateDirectory)/\(name)", "unopened": "\(unopened)", "stored": "\(sealed.count)",
        ])
    }

    /// The sealer of the file in `stateDirectory`, made when missing.
    ///
    /// - Throws: ``TokenFileError`` naming the file when it cannot be made or read, or does not
    ///   hold 64 hex digits.
    static func sealer(stateDirectory: String) throws -> TagKeySealer {
        let path = stateDirectory + "/" + name
        if access(path, F_OK) != 0 {
            // On PostgreSQL nothing else may have made the state directory (the database is elsewhere).
            do {
                try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw TokenFileError(path: path, reason: "cannot make its folder: \(error.localizedDescription)")
            }
            try create(path)
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw TokenFileError(path: path, reason: "cannot read it: \(error.localizedDescription)")
        }
        let hex = text.prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces)
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
            let byte = UInt8(hex[index..<next], radix: 16)
        {
            bytes.append(byte)
            index = next
        }
        guard bytes.count == 32, index == hex.endIndex else {
            throw TokenFileError(path: path, reason: "must hold 64 hex digits (a 256-bit key) on its first line")
        }
        return TagKeySealer(key: SymmetricKey(data: bytes))
    }

    /// Writes a new random key to `path`, mode 0600 whatever the umask; never replaces a file.
    private static func create(_ path: String) throws {
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        let text = key.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "\n"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TokenFileError(path: path, reason: "cannot create it: open: \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.synchronize()
            try handle.close()
        } catch {
            throw TokenFileError(path: path, reason: "cannot write it: \(error.localizedDescription)")
        }
    }
}
