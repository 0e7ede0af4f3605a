import Foundation

/// One row a statement returned, by column name, read the same way from either database.
///
/// Every accessor throws ``StoreError/corruptRow(_:)`` naming the column when the row has no
/// such column or holds a value of another kind, so a row switchd would not have written is an
/// error, never a crash.
package struct StoreRow: Sendable {
    package var values: [String: StoreValue]

    package init(_ values: [String: StoreValue]) {
        self.values = values
    }

    package func int64(_ column: String) throws -> Int64 {
        guard let value = try optionalInt64(column) else { throw missing(column, "an integer") }
        return value
    }

    package func optionalInt64(_ column: String) throws -> Int64? {
        switch try value(column) {
        case .null: return nil
        case .integer(let integer): return integer
        default: throw mismatch(column, "an integer")
        }
    }

    package func int(_ column: String) throws -> Int { Int(try int64(column)) }

    package func optionalInt(_ column: String) throws -> Int? { try optionalInt64(column).map { Int($0) } }

    package func double(_ column: String) throws -> Double {
        guard let value = try optionalDouble(column) else { throw missing(column, "a number") }
        return value
    }

    package func optionalDouble(_ column: String) throws -> Double? {
        switch try value(column) {
        case .null: return nil
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: throw mismatch(column, "a number")
        }
    }

    package func string(_ column: String) throws -> String {
        guard let value = try optionalString(column) else { throw missing(column, "text") }
        return value
    }

    package func optionalString(_ column: String) throws -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let text): return text
        default: throw mismatch(column, "text")
        }
    }

    package func bytes(_ column: String) throws -> [UInt8] {
        switch try value(column) {
        case .bytes(let bytes): return bytes
        case .null: throw missing(column, "bytes")
        default: throw mismatch(column, "bytes")
        }
    }

    /// SQLite's 0 or 1, or PostgreSQL's `boolean`.
    package func bool(_ column: String) throws -> Bool {
        switch try value(column) {
        case .boolean(let boolean): return boolean
        case .integer(let integer) where integer == 0 || integer == 1: return integer == 1
        case .null: throw missing(column, "a boolean")
        default: throw mismatch(column, "a boolean")
        }
    }

    /// GRDB's 16-byte blob, or PostgreSQL's `uuid`.
    package func optionalUUID(_ column: String) throws -> UUID? {
        switch try value(column) {
        case .null: return nil
        case .uuid(let uuid): return uuid
        case .bytes(let bytes) where bytes.count == 16:
            return UUID(uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        default: throw mismatch(column, "a UUID")
        }
    }

    package func uuid(_ column: String) throws -> UUID {
        guard let value = try optionalUUID(column) else { throw missing(column, "a UUID") }
        return value
    }

    private func value(_ column: String) throws -> StoreValue {
        guard let value = values[column] else { throw StoreError.corruptRow("a row has no column \(column)") }
        return value
    }

    private func missing(_ column: String, _ kind: String) -> StoreError {
        .corruptRow("column \(column) holds NULL, not \(kind)")
    }

    private func mismatch(_ column: String, _ kind: String) -> StoreError {
        .corruptRow("column \(column) holds \(values[column].map { "\($0)" } ?? "nothing"), not \(kind)")
    }
}
