import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An open file. Whoever opens one closes it; the value itself owns nothing.
struct FileDescriptor: Sendable, Hashable {
    let rawValue: CInt

    static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    enum Access {
        /// Write only, created when missing, every write at the end (`O_APPEND`): a line written
        /// with one `write()` is never interleaved with another writer's.
        case append
        /// Write only, created or emptied.
        case replace
        case read
        /// A directory, opened only to `fsync` it.
        case directory

        var flags: CInt {
            switch self {
            case .append: O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC
            case .replace: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
            case .read: O_RDONLY | O_CLOEXEC
            case .directory: O_RDONLY | O_DIRECTORY | O_CLOEXEC
            }
        }
    }

    /// Permissions of files this daemon creates: owner read-write, others read.
    static let createdFileMode: mode_t = 0o644

    /// Permissions of files that hold secrets (the saved switch, with its watched keys): owner only.
    static let privateFileMode: mode_t = 0o600

    /// Opens `path`; a file created is given `mode`. With ``privateFileMode`` an existing file
    /// is set to it too (`fchmod`), so a file made before keeps no wider permissions.
    static func open(_ path: String, _ access: Access, mode: mode_t = createdFileMode) throws(SystemError) -> FileDescriptor {
        let fd = try Syscall.retryingInterrupts("open", path: path) {
            Glibc.open(path, access.flags, mode)
        }
        if mode == privateFileMode {
            do {
                _ = try Syscall.retryingInterrupts("fchmod", path: path) { fchmod(fd, mode) }
            } catch {
                _ = Glibc.close(fd) // The fchmod already failed; that failure is the one reported.
                throw error
            }
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Writes all of `bytes`: one `write()` unless the kernel takes less (a full disk), in which
    /// case the rest follows. Throws on the first failing call; a prefix may then be on disk.
    func write(_ bytes: some ContiguousBytes) throws(SystemError) {
        let count = bytes.withUnsafeBytes(\.count)
        var offset = 0
        while offset < count {
            let written = try Syscall.retryingInterrupts("write") {
                bytes.withUnsafeBytes { buffer in
                    Glibc.write(rawValue, buffer.baseAddress! + offset, buffer.count - offset)
                }
            }
            offset += written
        }
    }

    /// Reads to the end of the file.
    func readAll() throws(SystemError) -> Data {
        var result = Data()
        let chunkSize = 64 * 1024
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = try Syscall.retryingInterrupts("read") {
                chunk.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, chunkSize) }
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    /// Flushes the file's data and metadata to the device.
    func sync() throws(SystemError) {
        try Syscall.retryingInterrupts("fsync") { fsync(rawValue) }
    }

    /// Closes the descriptor. Not retried on `EINTR`: on Linux the descriptor is gone either way,
    /// and retrying could close a descriptor another thread has just been given.
    func close() throws(SystemError) {
        if Glibc.close(rawValue) == -1, errno != EINTR {
            throw SystemError(call: "close", errno: errno, path: nil)
        }
    }
}
