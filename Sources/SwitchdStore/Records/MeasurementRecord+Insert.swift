import Foundation
import GRDB
import GRDBSQLite

extension MeasurementRecord {
    /// Inserts the row with `insert`, a statement of ``insertSQL`` (cached by the caller), binding
    /// ``insertedColumns``' values straight through SQLite's C API: going through
    /// `StatementArguments` built an array of `DatabaseValue`s per reading (a `Data` for each
    /// UUID), a measurable share of ingest. The values and their SQLite types are the ones
    /// ``insertArguments`` gives GRDB (a UUID is its 16 bytes as a blob).
    ///
    /// Returns false when the reading's `uuid` is already stored (the row is skipped).
    ///
    /// - Throws: `DatabaseError` with SQLite's result code when the insert fails (SQLITE_FULL for
    ///   a full disk, SQLITE_CONSTRAINT for a broken constraint); the caller's transaction or
    ///   savepoint then takes back what it stored.
    func insert(with insert: Statement, in db: Database) throws -> Bool {
        let statement = insert.sqliteStatement
        // Resets after the previous row; its result was checked when it was stepped.
        sqlite3_reset(statement)
        var column: Int32 = 0
        func next() -> Int32 {
            column += 1
            return column
        }
        bind(uuid, to: statement, at: next())
        sqlite3_bind_int64(statement, next(), batchID)
        bind(scannerID, to: statement, at: next())
        sqlite3_bind_int64(statement, next(), Int64(revision))
        bind(mode, to: statement, at: next())
        bind(roomID, to: statement, at: next())
        bind(locationID, to: statement, at: next())
        bind(kind, to: statement, at: next())
        sqlite3_bind_int64(statement, next(), timeMs)
        sqlite3_bind_int64(statement, next(), Int64(rssi))
        sqlite3_bind_int64(statement, next(), Int64(scan))
        sqlite3_bind_int64(statement, next(), address)
        bind(ssid, to: statement, at: next())
        bind(frequencyMHz.map(Int64.init), to: statement, at: next())
        bind(beaconUUID, to: statement, at: next())
        bind(major.map(Int64.init), to: statement, at: next())
        bind(minor.map(Int64.init), to: statement, at: next())
        bind(txPower.map(Int64.init), to: statement, at: next())
        assert(Int(column) == Self.insertedColumns.count, "insertSQL and the bound values disagree")
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            let message = db.lastErrorMessage
            // Leaves the statement ready for its next use (GRDB's included), which would
            // otherwise meet this error again when it resets the statement.
            sqlite3_reset(statement)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: Self.insertSQL)
        }
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    private func bind(_ value: UUID?, to statement: SQLiteStatement, at index: Int32) {
        guard let value else {
            sqlite3_bind_null(statement, index)
            return
        }
        withUnsafeBytes(of: value.uuid) { bytes in
            _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
        }
    }

    private func bind(_ value: String?, to statement: SQLiteStatement, at index: Int32) {
        guard var value else {
            sqlite3_bind_null(statement, index)
            return
        }
        value.withUTF8 { bytes in
            // A pointer that is never nil, so that an empty string is bound as '' and not NULL.
            let start = UnsafeRawPointer(bytes.baseAddress ?? emptyText.utf8Start)
            _ = sqlite3_bind_text(statement, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), sqliteTransient)
        }
    }

    private func bind(_ value: Int64?, to statement: SQLiteStatement, at index: Int32) {
        guard let value else {
            sqlite3_bind_null(statement, index)
            return
        }
        sqlite3_bind_int64(statement, index, value)
    }
}

/// SQLite's SQLITE_TRANSIENT: it copies the bytes before the bind call returns (the Swift
/// buffers live only for the call).
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
private let emptyText: StaticString = ""
