/// The conditions of a WHERE clause and their values as the seam binds them
/// (``StoreValue``), built filter by filter, so one query text serves both databases.
struct StoreConditions {
    private(set) var clauses: [String] = []
    private(set) var values: [StoreValue] = []

    /// Adds `clause`, which holds one `?`, bound to `value`; nothing when `value` is nil.
    mutating func add(_ clause: String, _ value: StoreValue?) {
        guard let value else { return }
        clauses.append(clause)
        values.append(value)
    }

    /// The clauses joined with AND.
    var sql: String { clauses.joined(separator: " AND ") }
}
