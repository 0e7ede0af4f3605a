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
        sqlite3_reset(statement)
        bindBatchColumns(to: statement)
        defer { sqlite3_clear_bindings(statement) }
        return try insertReading(with: statement, in: db)
    }

    /// Binds the columns every reading of one batch shares (its batch row, scanner, revision,
    /// mode, room and location) to a reset statement of ``insertSQL``. SQLite keeps bindings
    /// across resets, so a batch's readings bind these once and then go through
    /// ``insertReading(with:in:)`` one by one; the caller clears the bindings after the last
    /// (`sqlite3_clear_bindings`), since that method leaves pointers to memory it no longer owns.
    func bindBatchColumns(to statement: SQLiteStatement) {
        sqlite3_bind_int64(statement, Parameter.batchID, batchID)
        bindCopy(scannerID, to: statement, at: Parameter.scannerID)
        sqlite3_bind_int64(statement, Parameter.revision, Int64(revision))
        bindCopy(mode, to: statement, at: Parameter.mode)
        bind(roomID, to: statement, at: Parameter.roomID)
        bind(locationID, to: statement, at: Parameter.locationID)
    }

    /// Binds the reading's own columns (those ``bindBatchColumns(to:)`` leaves out) and inserts
    /// the row, as ``insert(with:in:)`` does; the batch's columns must be bound already.
    ///
    /// The text and blobs are bound without SQLite copying them (`SQLITE_STATIC`): their bytes
    /// stay on this stack frame until the step has built the row, and the next reading binds its
    /// own before its step. Copying them (`SQLITE_TRANSIENT`) took a `malloc` and a `free` per
    /// value, each under SQLite's global memory mutex.
    func insertReading(with statement: SQLiteStatement, in db: Database) throws -> Bool {
        // Resets after the previous row; its result was checked when it was stepped.
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, Parameter.timeMs, timeMs)
        sqlite3_bind_int64(statement, Parameter.rssi, Int64(rssi))
        sqlite3_bind_int64(statement, Parameter.scan, Int64(scan))
        sqlite3_bind_int64(statement, Parameter.address, address)
        bind(frequencyMHz.map(Int64.init), to: statement, at: Parameter.frequencyMHz)
        bind(major.map(Int64.init), to: statement, at: Parameter.major)
        bind(minor.map(Int64.init), to: statement, at: Parameter.minor)
        bind(txPower.map(Int64.init), to: statement, at: Parameter.txPower)
        var kind = kind
        let code = withUnsafeBytes(of: uuid.uuid) { id in
            sqlite3_bind_blob(statement, Parameter.uuid, id.baseAddress, Int32(id.count), sqliteStatic)
            // A Wi-Fi reading has no beacon UUID: its bytes (the reading's own) are not bound.
            return withUnsafeBytes(of: beaconUUID?.uuid ?? uuid.uuid) { beacon in
                if beaconUUID == nil {
                    sqlite3_bind_null(statement, Parameter.beaconUUID)
                } else {
                    sqlite3_bind_blob(statement, Parameter.beaconUUID, beacon.baseAddress, Int32(beacon.count), sqliteStatic)
                }
                return kind.withUTF8 { kind in
                    bindStatic(kind, to: statement, at: Parameter.kind)
                    guard var ssid else {
                        sqlite3_bind_null(statement, Parameter.ssid)
                        return sqlite3_step(statement)
                    }
                    return ssid.withUTF8 { ssid in
                        bindStatic(ssid, to: statement, at: Parameter.ssid)
                        return sqlite3_step(statement)
                    }
                }
            }
        }
        guard code == SQLITE_DONE else {
            let message = db.lastErrorMessage
            // Leaves the statement ready for its next use (GRDB's included), which would
            // otherwise meet this error again when it resets the statement.
            sqlite3_reset(statement)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: Self.insertSQL)
        }
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    /// The 1-based parameter of each column of ``insertSQL``.
    private enum Parameter {
        static let uuid = index(.uuid)
        static let batchID = index(.batchID)
        static let scannerID = index(.scannerID)
        static let revision = index(.revision)
        static let mode = index(.mode)
        static let roomID = index(.roomID)
        static let locationID = index(.locationID)
        static let kind = index(.kind)
        static let timeMs = index(.timeMs)
        static let rssi = index(.rssi)
        static let scan = index(.scan)
        static let address = index(.address)
        static let ssid = index(.ssid)
        static let frequencyMHz = index(.frequencyMHz)
        static let beaconUUID = index(.beaconUUID)
        static let major = index(.major)
        static let minor = index(.minor)
        static let txPower = index(.txPower)

        private static func index(_ column: CodingKeys) -> Int32 {
            Int32(insertedColumns.firstIndex(of: column)! + 1)
        }
    }

    /// Binds a copy of the text: for the batch's columns, bound once and kept across readings.
    private func bindCopy(_ value: String, to statement: SQLiteStatement, at index: Int32) {
        var value = value
        value.withUTF8 { bytes in bindText(bytes, to: statement, at: index, sqliteTransient) }
    }

    /// Binds the bytes as text without a copy: they must outlive the statement's next step.
    private func bindStatic(_ bytes: UnsafeBufferPointer<UInt8>, to statement: SQLiteStatement, at index: Int32) {
        bindText(bytes, to: statement, at: index, sqliteStatic)
    }

    private func bindText(_ bytes: UnsafeBufferPointer<UInt8>, to statement: SQLiteStatement, at index: Int32, _ destructor: sqlite3_destructor_type?) {
        // A pointer that is never nil, so that an empty string is bound as '' and not NULL.
        let start = UnsafeRawPointer(bytes.baseAddress ?? emptyText.utf8Start)
        _ = sqlite3_bind_text(statement, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), destructor)
    }

    private func bind(_ value: Int64?, to statement: SQLiteStatement, at index: Int32) {
        guard let value else {
            sqlite3_bind_null(statement, index)
            return
        }
        sqlite3_bind_int64(statement, index, value)
    }
}

/// SQLite's SQLITE_TRANSIENT: it copies the bytes before the bind call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
/// SQLite's SQLITE_STATIC: it reads the bytes where they are, until the statement is stepped,
/// reset with new bindings, or its bindings cleared.
private let sqliteStatic: sqlite3_destructor_type? = nil
private let emptyText: StaticString = ""
