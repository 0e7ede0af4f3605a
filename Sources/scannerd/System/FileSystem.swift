import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// File and directory operations, each a thin layer over the system calls that name them.
enum FileSystem {
    /// Prefix of a file being written by ``writeDurably(_:to:)``; such files are unfinished and
    /// may be deleted by whoever finds them after a crash.
    static let temporaryPrefix = ".tmp_"

    /// Permissions of directories this daemon creates.
    static let createdDirectoryMode: mode_t = 0o755

    /// Creates `path` and any missing parents; an existing directory is fine.
    static func makeDirectories(_ path: String) throws(SystemError) {
        var built = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            built += (built.isEmpty || built.hasSuffix("/") ? "" : "/") + component
            do {
                try Syscall.retryingInterrupts("mkdir", path: built) { mkdir(built, createdDirectoryMode) }
            } catch where error.errno == EEXIST {
                continue
            }
        }
    }

    /// The names in a directory, without `.` and `..`, in no particular order.
    static func contents(ofDirectory path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else {
            throw SystemError(call: "opendir", errno: errno, path: path)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw SystemError(call: "readdir", errno: errno, path: path) }
                return names
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The length of the file at `path`, in bytes.
    static func size(of path: String) throws(SystemError) -> Int {
        var status = stat()
        try Syscall.retryingInterrupts("stat", path: path) { stat(path, &status) }
        return Int(status.st_size)
    }

    /// The last byte of the file at `path`, or nil when it is missing or empty: how a line cut
    /// short by a killed writer is found. (A kill can cut a `write()` of several pages short.)
    static func lastByte(of path: String) throws(SystemError) -> UInt8? {
        guard exists(path) else { return nil }
        let descriptor = try FileDescriptor.open(path, .read)
        defer { try? descriptor.close() } // Nothing was written through it.
        var status = stat()
        try Syscall.retryingInterrupts("fstat", path: path) { fstat(descriptor.rawValue, &status) }
        guard status.st_size > 0 else { return nil }
        var byte: UInt8 = 0
        let count = try Syscall.retryingInterrupts("pread", path: path) { pread(descriptor.rawValue, &byte, 1, status.st_size - 1) }
        return count == 1 ? byte : nil
    }

    static func readFile(_ path: String) throws(SystemError) -> Data {
        let descriptor = try FileDescriptor.open(path, .read)
        defer { try? descriptor.close() } // A read-only descriptor has nothing left to lose on close.
        do {
            return try descriptor.readAll()
        } catch {
            throw SystemError(call: error.call, errno: error.errno, path: path)
        }
    }

    /// Replaces `path` with `data` so that after a crash the file is either absent or the old
    /// version or complete: written to a temporary file beside it, `fsync`ed, renamed over
    /// `path`, and the directory `fsync`ed so the rename itself is durable.
    ///
    /// Throws on the first failing call; `path` is then unchanged (a temporary file may remain).
    static func writeDurably(_ data: Data, to path: String, mode: mode_t = FileDescriptor.createdFileMode) throws(SystemError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/" + temporaryPrefix + url.lastPathComponent
        try writeSynced(data, to: temporary, mode: mode)
        try rename(temporary, to: path)
        try syncDirectory(directory)
    }

    /// Creates or empties `path`, writes `data` to it and `fsync`s it: the first half of
    /// ``writeDurably(_:to:)``, for callers that rename and sync the directory themselves.
    /// Throws on the first failing call, naming `path`.
    static func writeSynced(_ data: Data, to path: String, mode: mode_t = FileDescriptor.createdFileMode) throws(SystemError) {
        let descriptor = try FileDescriptor.open(path, .replace, mode: mode)
        do {
            try descriptor.write(data)
            try descriptor.sync()
        } catch {
            try? descriptor.close() // The write already failed; that failure is the one reported.
            throw SystemError(call: error.call, errno: error.errno, path: path)
        }
        try descriptor.close()
    }

    /// Makes the directory's entries (creations, renames, deletions) durable.
    static func syncDirectory(_ path: String) throws(SystemError) {
        let descriptor = try FileDescriptor.open(path, .directory)
        defer { try? descriptor.close() } // Nothing was written through it.
        do {
            try descriptor.sync()
        } catch {
            throw SystemError(call: error.call, errno: error.errno, path: path)
        }
    }

    static func rename(_ source: String, to destination: String) throws(SystemError) {
        try Syscall.retryingInterrupts("rename", path: source) { Glibc.rename(source, destination) }
    }

    /// Deletes a file. A file that is already gone is not an error.
    static func remove(_ path: String) throws(SystemError) {
        do {
            try Syscall.retryingInterrupts("unlink", path: path) { unlink(path) }
        } catch where error.errno == ENOENT {
            return
        }
    }
}
