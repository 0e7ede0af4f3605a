extension AppDatabase {
    /// Refuses one more row in `table` when it holds `max` already. Run it in the write that
    /// inserts, after taking the lock that write's kind takes, so that two writers cannot both
    /// see room for the last one.
    ///
    /// - Throws: ``StoreError/conflict(_:)`` naming `setting`, the switchd option that sets `max`.
    static func checkRoom(in table: String, for noun: String, max: Int, setting: String, _ sql: any StoreTransaction) throws {
        let count = try sql.row("SELECT COUNT(*) AS n FROM \(table)", [])?.int64("n") ?? 0
        guard count < max else {
            throw StoreError.conflict("there are \(count) \(noun) already, the most this switchd keeps (\(setting) = \(max)): delete one first")
        }
    }
}
