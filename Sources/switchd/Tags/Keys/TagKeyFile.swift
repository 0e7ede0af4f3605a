import Crypto
import Foundation
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
