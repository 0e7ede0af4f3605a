import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The PostgreSQL driver of ``StoreTransaction``: each statement is sent on the transaction's
/// connection and waited for on the calling thread, one of ``PostgresStore``'s own threads
/// (never an event loop's, nor a Swift-concurrency thread), as GRDB waits for SQLite.
struct PostgresTransaction: StoreTransaction {
    let connection: PostgresConnection
    let logger: Logger

    func rows(_ sql: String, _ values: [StoreValue]) throws -> [StoreRow] {
        try storeRows(run(sql, values))
    }

    /// The rows of `sql`, written with `$1`, `$2`, … and bound with `binds` as they are (array
    /// binds, which ``StoreValue`` has no case for).
    func rows(numbered sql: String, binds: PostgresBindings) throws -> [StoreRow] {
        try storeRows(run(PostgresQuery(unsafeSQL: sql, binds: binds)))
    }

    private func storeRows(_ result: PostgresQueryResult) throws -> [StoreRow] {
        try result.rows.map { row in
            var read: [String: StoreValue] = [:]
            for cell in row {
                read[cell.columnName] = try Self.value(cell)
            }
            return StoreRow(read)
        }
    }

    func execute(_ sql: String, _ values: [StoreValue]) throws -> Int {
        try run(sql, values).metadata.rows ?? 0
    }

    /// A transaction-scoped advisory lock on the 64-bit hash of `key`.
    func lock(_ key: String) throws {
        _ = try run("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [.text(key)])
    }

    func notify(_ channel: String, _ payload: String) throws {
        _ = try run("SELECT pg_notify(?, ?)", [.text(channel), .text(payload)])
    }

    private func run(_ sql: String, _ values: [StoreValue]) throws -> PostgresQueryResult {
        var binds = PostgresBindings()
        for value in values {
            switch value {
            case .null: binds.appendNull()
            case .integer(let integer): binds.append(integer)
            case .real(let real): binds.append(real)
            case .text(let text): binds.append(text)
            case .bytes(let bytes): binds.append(ByteBuffer(bytes: bytes))
            case .boolean(let boolean): binds.append(boolean)
            case .uuid(let uuid): binds.append(uuid)
            }
        }
        return try run(PostgresQuery(unsafeSQL: Self.numberingPlaceholders(sql), binds: binds))
    }

    private func run(_ query: PostgresQuery) throws -> PostgresQueryResult {
        do {
            return try connection.query(query, logger: logger).wait()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.diskFull {
            throw StoreError.storageFull
        }
    }

    /// SQLSTATE disk_full.
    static let diskFull = "53100"

    /// `sql` with each `?` outside quotes made `$1`, `$2`, … in order.
    static func numberingPlaceholders(_ sql: String) -> String {
        var numbered = ""
        var count = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                numbered.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                numbered.append(character)
            } else if character == "?" {
                count += 1
                numbered += "$\(count)"
            } else {
                numbered.append(character)
            }
        }
        return numbered
    }

    /// The cell as the value the SQL layer reads; integer types of any width are integers.
    private static func value(_ cell: PostgresCell) throws -> StoreValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .text, .varchar, .name: return .text(try cell.decode(String.self))
        case .bytea:
            var buffer = try cell.decode(ByteBuffer.self)
            return .bytes(buffer.readBytes(length: buffer.readableBytes) ?? [])
        case .bool: return .boolean(try cell.decode(Bool.self))
        case .uuid: return .uuid(try cell.decode(UUID.self))
        default:
            throw StoreError.corruptRow("column \(cell.columnName) has PostgreSQL type \(cell.dataType), which the store does not read")
        }
    }
}
