import GRDB

/// The conditions of a WHERE clause and their arguments, built filter by filter.
struct SQLConditions {
    private(set) var clauses: [String] = []
    private(set) var arguments: StatementArguments = []

    /// Adds `clause`, which holds one `?`, bound to `value`; nothing when `value` is nil.
    mutating func add(_ clause: String, _ value: (some DatabaseValueConvertible)?) {
        guard let value else { return }
        clauses.append(clause)
        arguments += [value]
    }

    /// The clauses joined with AND.
    var sql: String { clauses.joined(separator: " AND ") }
}
