/// The dashboard's statements. Each reads only the recent end of the history tables through
/// an index of `v4-history-indexes` (or, for the surveyed locations, one index probe per
/// location), so the dashboard costs the same however many old batches and positions are kept.
package enum DashboardSQL {
    /// Scanners with a batch received or a position computed since `?` (twice: the same time).
    package static let scannersOnline = """
        SELECT COUNT(*) AS n FROM (
            SELECT scanner_id FROM batch WHERE received_ms >= ? AND scanner_id IN (SELECT id FROM scanner)
            UNION SELECT scanner_id FROM position WHERE time_ms >= ?
        ) AS online
        """
    package static let scanners = "SELECT COUNT(*) AS n FROM scanner"
    /// Readings stored from the batches received since `?` (PostgreSQL's `SUM` of integers is
    /// `numeric`, hence the cast).
    package static let readingsSince = "SELECT CAST(COALESCE(SUM(stored), 0) AS BIGINT) AS n FROM batch WHERE received_ms >= ?"
    /// Positions computed since `?`.
    package static let positionsSince = "SELECT COUNT(*) AS n FROM position WHERE time_ms >= ?"
    /// Locations with a survey reading. A reading's location always exists (its foreign key
    /// cascades), so asking each location is the same count as the distinct locations of all
    /// readings, without reading every survey reading.
    package static let locationsSurveyed = """
        SELECT COUNT(*) AS n FROM location WHERE EXISTS (SELECT 1 FROM measurement WHERE measurement.location_id = location.id)
        """
    package static let locations = "SELECT COUNT(*) AS n FROM location"
    /// The newest `?` batches that stored readings, with the mode they were scanned in.
    package static let recentBatches = """
        SELECT batch.scanner_id, batch.received_ms, batch.stored, batch.discarded, switch_revision.mode
        FROM batch LEFT JOIN switch_revision
            ON switch_revision.scanner_id = batch.scanner_id AND switch_revision.revision = batch.revision
        WHERE batch.stored > 0
        ORDER BY batch.id DESC LIMIT ?
        """
    /// The newest `?` switch changes (a scanner's first revision, made with it, is none).
    package static let recentSwitches = """
        SELECT scanner_id, revision, scanning, mode, location_id, changed_ms FROM switch_revision
        WHERE revision > 1 ORDER BY changed_ms DESC LIMIT ?
        """
    /// The positions since `?`, per scanner in time order. Ordering by `scanner_id || ''`, not
    /// the column, keeps SQLite from walking `position_scanner_time` (every position ever) for
    /// the order: it finds the window by `position_time` and sorts only that (SQLite's unary `+`
    /// would do the same, but PostgreSQL has none for text).
    package static let dwellPositions = """
        SELECT scanner_id, time_ms, floor_id, x, y, room_id FROM position WHERE time_ms >= ?
        ORDER BY scanner_id || '', time_ms, id
        """
    /// The tag positions from key `?` on with a time at or after `?`, per tag in time order: a
    /// range of the primary key, sorted (`tag_id + 0`, as above, so the order does not walk
    /// `tag_position_window`, every tag position ever).
    package static let dwellTagPositions = """
        SELECT tag_id, time_ms, floor_id, x, y, room_id FROM tag_position WHERE id >= ? AND time_ms >= ?
        ORDER BY tag_id + 0, time_ms, id
        """
}
