import Foundation

/// How many rows one pass of ``AppDatabase/pruneHistory(before:chunk:)`` deleted, per kind.
package struct PrunedHistory: Sendable, Equatable {
    package var readings = 0
    package var batches = 0
    package var positions = 0
    package var tagPositions = 0
    package var sightings = 0
    package var events = 0
    package var deliveries = 0

    package var total: Int { readings + batches + positions + tagPositions + sightings + events + deliveries }
}

extension AppDatabase {
    /// Deletes the history received or made before `cutoff`, `chunk` rows per transaction, so
    /// ingest and the API wait at most one chunk's delete at a time.
    ///
    /// Deleted: readings taken in locate mode (by when switchd received their batch) and the
    /// batch receipts no kept reading needs; scanners' and tags' positions, sightings, presence
    /// events and finished webhook deliveries. Kept whatever their age: survey readings (the
    /// radio map is made of them), each scanner's and tag's latest position, each tag's latest
    /// sighting (the "last seen" of a tag nobody has heard for long), presence events a webhook
    /// delivery still waits for, and every `missingTagHeard`. Rows are found through the tables' keys:
    /// positions by their scanner and time index, the others by a binary search of the key for
    /// the first row at or after `cutoff`, which relies on rows being added in about the order of
    /// their times (a row stored late with an older time may outlive the cutoff by as much).
    ///
    /// One body on both databases. On PostgreSQL a deletion that lowers a feed's highest key
    /// keeps the former one in `feed_end` (``SequencedFeed/keepingEnd(in:_:)``), so no feed's end goes
    /// down, as SQLite's AUTOINCREMENT counters never do.
    ///
    /// - Throws: the database's error; what earlier chunks deleted stays deleted, and the next
    ///   pass carries on.
    package func pruneHistory(before cutoff: Date, chunk: Int = 5000) async throws -> PrunedHistory {
        let cutoffMs = cutoff.milliseconds
        var pruned = PrunedHistory()
        let (firstNewBatch, firstNewReading) = try await readStatements { sql in
            let batch = try Self.firstKey(atOrAfter: cutoffMs, table: "batch", key: "id", column: "received_ms", in: sql)
            return (batch, try Self.firstKey(atOrAfter: batch, table: "measurement", key: "sequence", column: "batch_id", in: sql))
        }
        pruned.readings = try await deleteInChunks(chunk, feed: .measurements, sql: """
            DELETE FROM measurement WHERE sequence IN (
                SELECT sequence FROM measurement WHERE sequence < ? AND mode = 'locate' ORDER BY sequence LIMIT ?)
            """, values: [.integer(firstNewReading)])
        pruned.batches = try await deleteInChunks(chunk, sql: """
            DELETE FROM batch WHERE id IN (
                SELECT id FROM batch WHERE id < ? AND id NOT IN (SELECT batch_id FROM measurement WHERE sequence < ?)
                ORDER BY id LIMIT ?)
            """, values: [.integer(firstNewBatch), .integer(firstNewReading)])
        for scanner in try await readStatements({ sql in try sql.rows("SELECT id FROM scanner ORDER BY id", []).map { try $0.string("id") } }) {
            // The subquery finds a row whenever the outer one exists: the scanner's latest.
            pruned.positions += try await deleteInChunks(chunk, feed: .positions, sql: """
                DELETE FROM position WHERE id IN (
                    SELECT id FROM position WHERE scanner_id = ? AND time_ms < ? AND id <> (
                        SELECT id FROM position WHERE scanner_id = ? ORDER BY time_ms DESC, id DESC LIMIT 1)
                    LIMIT ?)
                """, values: [.text(scanner), .integer(cutoffMs), .text(scanner)])
        }
        pruned.tagPositions = try await deleteOlder(than: cutoffMs, chunk: chunk, table: "tag_position", time: "time_ms", feed: .tagPositions, keep: """
            SELECT (SELECT MAX(id) FROM tag_position WHERE tag_id = tag.id) FROM tag
            """)
        pruned.sightings = try await deleteOlder(than: cutoffMs, chunk: chunk, table: "sighting", time: "window_end_ms", keep: """
            SELECT (SELECT id FROM sighting WHERE tag_id = tag.id ORDER BY window_end_ms DESC, id DESC LIMIT 1) FROM tag
            """)
        pruned.deliveries = try await deleteInChunks(chunk, sql: """
            DELETE FROM webhook_delivery WHERE id IN (
                SELECT id FROM webhook_delivery WHERE state IN ('delivered', 'dead') AND last_attempt_ms < ? LIMIT ?)
            """, values: [.integer(cutoffMs)])
        // A missing tag heard is kept, as when tag events had a table of their own; a tag's
        // presence events go like a scanner's.
        pruned.events = try await deleteOlder(than: cutoffMs, chunk: chunk, table: "presence_event", time: "time_ms", feed: .presenceEvents, keep: """
            SELECT event_id FROM webhook_delivery WHERE state = 'pending' UNION ALL SELECT id FROM presence_event WHERE kind = 'missingTagHeard'
            """)
        return pruned
    }

    /// Deletes the rows of `table` keyed below the first whose `time` is at or after `cutoffMs`,
    /// except those `keep` (a query of one column of keys; NULLs are ignored) names.
    private func deleteOlder(than cutoffMs: Int64, chunk: Int, table: String, time: String, feed: SequencedFeed? = nil, keep: String) async throws -> Int {
        let firstNew = try await readStatements { sql in try Self.firstKey(atOrAfter: cutoffMs, table: table, key: "id", column: time, in: sql) }
        return try await deleteInChunks(chunk, feed: feed, sql: """
            WITH kept(id) AS (\(keep))
            DELETE FROM \(table) WHERE id IN (
                SELECT id FROM \(table) WHERE id < ? AND id NOT IN (SELECT id FROM kept WHERE id IS NOT NULL) ORDER BY id LIMIT ?)
            """, values: [.integer(firstNew)])
    }

    /// Runs `sql` (whose last parameter is the chunk size) until it deletes fewer rows than a
    /// chunk, one transaction each time, keeping `feed`'s end; returns how many rows it deleted in all.
    private func deleteInChunks(_ chunk: Int, feed: SequencedFeed? = nil, sql statement: String, values: [StoreValue]) async throws -> Int {
        var deleted = 0
        while true {
            let changes = try await writeStatements { sql in
                var changes = 0
                let delete = { try sql.execute(statement, values + [StoreValue(chunk)]) }
                return try feed?.keepingEnd(in: sql, delete) ?? delete()
            }
            deleted += changes
            if changes < chunk { return deleted }
        }
    }

    /// The smallest key at or above which every row of `table` has `column` at least `value`,
    /// for a table whose `column` grows with its `key`. A binary search: a few key lookups,
    /// whatever the table's size. Past the last key when every row is below `value`; 0 for an
    /// empty table.
    static func firstKey(atOrAfter value: Int64, table: String, key: String, column: String, in sql: any StoreTransaction) throws -> Int64 {
        guard let last = try sql.row("SELECT MAX(\(key)) AS last FROM \(table)", [])?.optionalInt64("last") else { return 0 }
        var low = Int64(0)
        var high = last + 1
        while low < high {
            let middle = low + (high - low) / 2
            let row = try sql.row("SELECT \(key) AS k, \(column) AS c FROM \(table) WHERE \(key) >= ? ORDER BY \(key) LIMIT 1", [.integer(middle)])
            if let row, try row.int64("c") < value {
                low = try row.int64("k") + 1
            } else {
                high = middle
            }
        }
        return low
    }
}
