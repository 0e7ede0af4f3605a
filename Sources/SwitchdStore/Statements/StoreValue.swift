import Foundation

/// A value bound to a statement or read from a row, in a form both databases hold
/// (docs/scale-out.md, "The common dialect"): each driver binds it as its own type (a `Bool` is
/// SQLite's integer 0 or 1 and PostgreSQL's `boolean`; a UUID is GRDB's 16-byte blob and
/// PostgreSQL's `uuid`) and reads its own type back into the value the SQL layer expects.
package enum StoreValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bytes([UInt8])
    case boolean(Bool)
    case uuid(UUID)
}

extension StoreValue {
    package init(_ value: Int64?) { self = value.map(StoreValue.integer) ?? .null }
    package init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    package init(_ value: Double?) { self = value.map(StoreValue.real) ?? .null }
    package init(_ value: String?) { self = value.map(StoreValue.text) ?? .null }
    package init(_ value: [UInt8]?) { self = value.map(StoreValue.bytes) ?? .null }
    package init(_ value: Bool?) { self = value.map(StoreValue.boolean) ?? .null }
    package init(_ value: UUID?) { self = value.map(StoreValue.uuid) ?? .null }
}
