import GRDB

/// A record of a table whose key is its row ID: nil until SQLite gives one on insert.
protocol RowIDRecord: MutablePersistableRecord {
    var id: Int64? { get set }
}

extension RowIDRecord {
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
