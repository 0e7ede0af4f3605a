import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AppDatabase {
    /// The file a production switchd keeps its state in, below its state directory.
    package static let fileName = "switchd.sqlite"

    /// The mode of the database file, and so of its `-wal` and `-shm` files, which SQLite
    /// creates with the main file's mode: the owner only. Tokens' hashes and the survey are in it.
    package static let fileMode: mode_t = 0o600

    /// Opens (creating when needed) `<stateDirectory>/switchd.sqlite` as a WAL database pool.
    /// A new file is created with ``fileMode`` whatever the process's umask; an existing file
    /// keeps its mode. With `checkpointsInBackground`, commits leave the WAL to the database's
    /// ``checkpointer``, whose `run` the caller starts (a long-running switchd does).
    ///
    /// - Throws: ``DatabaseFileError`` when the directory or the file cannot be created; a GRDB
    ///   error when the file is not a usable SQLite database.
    package static func open(stateDirectory: String, checkpointsInBackground: Bool = false) throws -> AppDatabase {
        let directory = URL(fileURLWithPath: stateDirectory, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DatabaseFileError(path: directory.path, reason: "cannot create the state directory: \(error.localizedDescription)")
        }
        let path = directory.appendingPathComponent(fileName).path
        try createOwnerOnly(path, mode: fileMode)
        let checkpointer = checkpointsInBackground ? WALCheckpointer(path: path) : nil
        return try AppDatabase(DatabasePool(path: path, configuration: configuration(checkpointer: checkpointer)), checkpointer: checkpointer)
    }
}

/// Creates an empty file at `path` with `mode` exactly (set with `fchmod`, so the umask cannot
/// widen or narrow it); an existing file is left as it is. Outside ``AppDatabase`` so that
/// `open` here is the system call, not ``AppDatabase/open(stateDirectory:)``.
private func createOwnerOnly(_ path: String, mode: mode_t) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
        if errno == EEXIST { return }
        throw DatabaseFileError(path: path, reason: "cannot create it: open: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    guard fchmod(descriptor, mode) == 0 else {
        throw DatabaseFileError(path: path, reason: "cannot set its mode: fchmod: \(String(cString: strerror(errno)))")
    }
}

/// The database file or its folder could not be made.
package struct DatabaseFileError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String

    package var description: String { "database \(path): \(reason)" }
}
