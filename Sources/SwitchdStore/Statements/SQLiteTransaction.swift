import Foundation
import GRDB

/// The SQLite driver of ``StoreTransaction``: statements run on GRDB's `Database` inside the
/// transaction GRDB opened, SQLite's own serialisation (one writer) doing the rest.
struct SQLiteTransaction: StoreTransaction {
    let db: Database

    func rows(_ sql: String, _ values: [StoreValue]) throws -> [StoreRow] {
        let statement = try db.cachedStatement(sql: sql)
        statement.setUncheckedArguments(Self.arguments(values))
        let columns = statement.columnNames
        return try Row.fetchAll(statement).map { row in
            var read: [String: StoreValue] = [:]
            for (index, column) in columns.enumerated() {
                read[column] = Self.value(row[index] as DatabaseValue)
            }
            return StoreRow(read)
        }
    }

    func execute(_ sql: String, _ values: [StoreValue]) throws -> Int {
        let statement = try db.cachedStatement(sql: sql)
        statement.setUncheckedArguments(Self.arguments(values))
        try statement.execute()
        return db.changesCount
    }

    /// Nothing to take: SQLite runs one write transaction at a time.
    func lock(_ key: String) throws {}

    /// Nothing to send: one SQLite file has one switchd, whose hub announces its own commits.
    func notify(_ channel: String, _ payload: String) throws {}

    static func arguments(_ values: [StoreValue]) -> StatementArguments {
        StatementArguments(values.map { value -> DatabaseValue in
            switch value {
            case .null: .null
            case .integer(let integer): integer.databaseValue
            case .real(let real): real.databaseValue
            case .text(let text): text.databaseValue
            case .bytes(let bytes): Data(bytes).databaseValue
            case .boolean(let boolean): boolean.databaseValue
            case .uuid(let uuid): uuid.databaseValue
            }
        })
    }

    private static func value(_ value: DatabaseValue) -> StoreValue {
        switch value.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        case .blob(let data): .bytes([UInt8](data))
        }
    }
}

