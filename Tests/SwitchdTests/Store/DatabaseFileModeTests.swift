import Foundation
import GRDB
import Testing
@testable import SwitchdStore
#if canImport(Glibc)
import Glibc
#endif

/// The database and its WAL and shared-memory files are the owner's alone, whatever the umask
/// switchd is started with.
@Suite("Database file mode")
struct DatabaseFileModeTests {
    @Test func theDatabaseAndItsWALAndSHMAre0600UnderAPermissiveUmask() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchd-mode-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let previous = umask(0)
        defer { umask(previous) }
        let database = try AppDatabase.open(stateDirectory: directory)
        umask(previous)
        // A write, so the WAL and the shared-memory index exist.
        _ = try await database.createFloor(.init(name: "Ground"))
        let path = directory + "/" + AppDatabase.fileName
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            #expect(stat(file, &status) == 0, "\(file) should exist")
            #expect(status.st_mode & 0o777 == 0o600, "\(file) has mode \(String(status.st_mode & 0o777, radix: 8))")
        }
    }

    @Test func anExistingFileKeepsItsMode() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchd-mode-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = try AppDatabase.open(stateDirectory: directory)
        let path = directory + "/" + AppDatabase.fileName
        #expect(chmod(path, 0o640) == 0)
        _ = try AppDatabase.open(stateDirectory: directory)
        var status = stat()
        #expect(stat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o640)
    }
}
