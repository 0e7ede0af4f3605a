/// One transaction in either database, the seam between the store's logic and its two drivers
/// (docs/scale-out.md, "One body of store logic, two drivers").
///
/// Statements are written once, in the common dialect, with `?` for each bound value in order;
/// the PostgreSQL driver numbers them `$1…$n`. A body given a transaction is synchronous and may
/// be run again by a driver that retries a serialisation failure, so it must do nothing but
/// read and write through the transaction.
package protocol StoreTransaction {
    /// Runs `sql` and returns every row it produced (a `SELECT`, or a write with `RETURNING`).
    ///
    /// - Throws: the driver's error when the statement fails; ``StoreError/storageFull`` when
    ///   the database has no room.
    func rows(_ sql: String, _ values: [StoreValue]) throws -> [StoreRow]

    /// Runs `sql` and returns how many rows it inserted, updated or deleted.
    ///
    /// - Throws: as ``rows(_:_:)``.
    @discardableResult
    func execute(_ sql: String, _ values: [StoreValue]) throws -> Int

    /// Holds the lock named `key` until the transaction ends, so that transactions deciding on
    /// the same thing (one scanner's next switch revision) run one after another on every
    /// instance (docs/scale-out.md, "Transactions and serialisation"). SQLite, whose writes
    /// are already one at a time, takes none.
    func lock(_ key: String) throws

    /// Announces `payload` on `channel` to every instance listening, when and only when the
    /// transaction commits (PostgreSQL's NOTIFY). SQLite has one process, whose own watermarks
    /// announce its commits, so it sends nothing.
    func notify(_ channel: String, _ payload: String) throws
}

extension StoreTransaction {
    /// The first row `sql` produced, or nil.
    package func row(_ sql: String, _ values: [StoreValue]) throws -> StoreRow? {
        try rows(sql, values).first
    }

    /// The row an `INSERT … RETURNING` statement gave.
    ///
    /// - Throws: as ``rows(_:_:)``; ``StoreError/corruptRow(_:)`` naming `what` when it gave none.
    func insertedRow(_ sql: String, _ values: [StoreValue], storing what: String) throws -> StoreRow {
        guard let row = try row(sql, values) else { throw StoreError.corruptRow("storing \(what) returned no row") }
        return row
    }
}
