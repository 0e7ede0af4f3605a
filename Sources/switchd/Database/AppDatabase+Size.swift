import GRDB

extension AppDatabase {
    /// The database's size in bytes (pages in use times page size; a WAL file is not included).
    func sizeInBytes() async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()") ?? 0
        }
    }
}
