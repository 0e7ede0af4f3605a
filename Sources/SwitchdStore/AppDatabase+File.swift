import Foundation
import GRDB

extension AppDatabase {
    /// The file a production switchd keeps its state in, below its state directory.
    package static let fileName = "switchd.sqlite"

    /// Opens (creating when needed) `<stateDirectory>/switchd.sqlite` as a WAL database pool.
    ///
    /// - Throws: ``DatabaseFileError`` when the directory cannot be created; a GRDB error when
    ///   the file is not a usable SQLite database.
    package static func open(stateDirectory: String) throws -> AppDatabase {
        let directory = URL(fileURLWithPath: stateDirectory, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DatabaseFileError(path: directory.path, reason: "cannot create the state directory: \(error.localizedDescription)")
        }
        let path = directory.appendingPathComponent(fileName).path
        return try AppDatabase(DatabasePool(path: path, configuration: configuration()))
    }
}

/// The database folder could not be made.
package struct DatabaseFileError: Error, CustomStringConvertible {
    package var path: String
    package var reason: String

    package var description: String { "database \(path): \(reason)" }
}
