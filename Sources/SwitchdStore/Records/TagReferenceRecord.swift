import Foundation
import Positioning
import ScanContract

/// A `tag_reference` row and its `tag_reference_window` rows: every statement on those two
/// tables, the same on either database (``SchemaTagReferences``).
struct TagReferenceRecord {
    var id: Int64?
    var tagID: Int64
    var floorID: Int64
    var x: Double
    var y: Double
    var z: Double
    var txPower: Int
    var windowsWanted: Int
    var afterWindowEndMs: Int64
    var lastWindowEndMs: Int64?
    var createdMs: Int64

    static let columns = "id, tag_id, floor_id, x, y, z, tx_power, windows_wanted, after_window_end_ms, last_window_end_ms, created_ms"

    init(_ new: NewTagReference, of tag: TagRecord, tagID: Int64, afterWindowEndMs: Int64, at time: Date) {
        self.tagID = tagID
        floorID = new.floorID
        x = new.x
        y = new.y
        z = new.z ?? tag.height
        txPower = tag.txPower
        windowsWanted = new.windows ?? NewTagReference.defaultWindows
        self.afterWindowEndMs = afterWindowEndMs
        createdMs = time.milliseconds
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        tagID = try row.int64("tag_id")
        floorID = try row.int64("floor_id")
        x = try row.double("x")
        y = try row.double("y")
        z = try row.double("z")
        txPower = try row.int("tx_power")
        windowsWanted = try row.int("windows_wanted")
        afterWindowEndMs = try row.int64("after_window_end_ms")
        lastWindowEndMs = try row.optionalInt64("last_window_end_ms")
        createdMs = try row.int64("created_ms")
    }

    /// Stores the reference and returns it with its ID.
    func inserted(_ sql: any StoreTransaction) throws -> TagReferenceRecord {
        guard let row = try sql.row("""
            INSERT INTO tag_reference (tag_id, floor_id, x, y, z, tx_power, windows_wanted, after_window_end_ms, created_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING \(Self.columns)
            """, [
                .integer(tagID), .integer(floorID), .real(x), .real(y), .real(z), StoreValue(txPower), StoreValue(windowsWanted),
                .integer(afterWindowEndMs), .integer(createdMs),
            ]) else { throw StoreError.corruptRow("inserting a tag reference returned no row") }
        return try TagReferenceRecord(row: row)
    }

    /// The tag's references, oldest first.
    static func ofTag(_ sql: any StoreTransaction, _ tagID: Int64) throws -> [TagReferenceRecord] {
        try sql.rows("SELECT \(columns) FROM tag_reference WHERE tag_id = ? ORDER BY id", [.integer(tagID)]).map(TagReferenceRecord.init(row:))
    }

    static func fetch(_ sql: any StoreTransaction, id: Int64, tagID: Int64) throws -> TagReferenceRecord? {
        try sql.row("SELECT \(columns) FROM tag_reference WHERE id = ? AND tag_id = ?", [.integer(id), .integer(tagID)])
            .map(TagReferenceRecord.init(row:))
    }

    /// The tag's reference still recording, if any (at most one is, ``AppDatabase/createTagReference(_:for:at:)``).
    static func recording(_ sql: any StoreTransaction, tagID: Int64) throws -> TagReferenceRecord? {
        try sql.row("SELECT \(columns) FROM tag_reference WHERE tag_id = ? AND last_window_end_ms IS NULL", [.integer(tagID)])
            .map(TagReferenceRecord.init(row:))
    }

    /// The tag's reference a window ending at `windowEndMs` belongs to, if any: one recording,
    /// or one done whose last window it is (the other scanners' reports of the window that
    /// finished it still come in).
    static func taking(_ sql: any StoreTransaction, tagID: Int64, windowEndMs: Int64) throws -> TagReferenceRecord? {
        try sql.row("""
            SELECT \(columns) FROM tag_reference
            WHERE tag_id = ? AND after_window_end_ms < ? AND (last_window_end_ms IS NULL OR last_window_end_ms >= ?)
            ORDER BY id DESC LIMIT 1
            """, [.integer(tagID), .integer(windowEndMs), .integer(windowEndMs)]).map(TagReferenceRecord.init(row:))
    }

    /// - Returns: whether a row was deleted.
    static func delete(_ sql: any StoreTransaction, id: Int64, tagID: Int64) throws -> Bool {
        try sql.execute("DELETE FROM tag_reference WHERE id = ? AND tag_id = ?", [.integer(id), .integer(tagID)]) > 0
    }

    /// Copies one placed scanner's sighting of the tag into this reference when its window is
    /// one the reference wants: after the tag's latest window when it was asked, and (once done)
    /// not after its last. A window a scanner reports twice is kept once.
    ///
    /// - Returns: whether a window was added.
    func record(_ sighting: SightingRecord, in sql: any StoreTransaction) throws -> Bool {
        guard let id, sighting.windowEndMs > afterWindowEndMs, lastWindowEndMs.map({ sighting.windowEndMs <= $0 }) ?? true else { return false }
        return try sql.execute("""
            INSERT INTO tag_reference_window (reference_id, window_end_ms, scanner_id, median_rssi, max_rssi)
            VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """, [.integer(id), .integer(sighting.windowEndMs), .text(sighting.scannerID), .real(sighting.medianRSSI), StoreValue(sighting.maxRSSI)]) > 0
    }

    /// Marks the recording done once its wanted windows are in: its last window is the
    /// `windowsWanted`-th, and windows after it (a batch may carry several) are dropped.
    ///
    /// - Returns: whether this call finished it.
    func finishIfComplete(in sql: any StoreTransaction) throws -> Bool {
        guard let id, lastWindowEndMs == nil else { return false }
        guard let last = try sql.row("""
            SELECT window_end_ms FROM (SELECT DISTINCT window_end_ms FROM tag_reference_window WHERE reference_id = ?) w
            ORDER BY window_end_ms LIMIT 1 OFFSET ?
            """, [.integer(id), StoreValue(windowsWanted - 1)])?.int64("window_end_ms") else { return false }
        _ = try sql.execute("DELETE FROM tag_reference_window WHERE reference_id = ? AND window_end_ms > ?", [.integer(id), .integer(last)])
        return try sql.execute(
            "UPDATE tag_reference SET last_window_end_ms = ? WHERE id = ? AND last_window_end_ms IS NULL", [.integer(last), .integer(id)]
        ) == 1
    }

    /// Windows recorded so far, and the scanners heard in them.
    func progress(_ sql: any StoreTransaction) throws -> (windows: Int, scanners: [String]) {
        let values: [StoreValue] = [.integer(id ?? 0)]
        let windows = try sql.row("SELECT COUNT(DISTINCT window_end_ms) AS n FROM tag_reference_window WHERE reference_id = ?", values)?.int("n") ?? 0
        let scanners = try sql.rows("SELECT DISTINCT scanner_id FROM tag_reference_window WHERE reference_id = ? ORDER BY scanner_id", values)
            .map { try $0.string("scanner_id") }
        return (windows, scanners)
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    func reference(_ sql: any StoreTransaction) throws -> TagReference {
        let (windows, scanners) = try progress(sql)
        return TagReference(
            id: id ?? 0, tagID: tagID, floorID: floorID, x: x, y: y, z: z, windowsWanted: windowsWanted, windowsRecorded: windows,
            scannersHeard: scanners, state: lastWindowEndMs == nil ? .recording : .done, createdAt: Date(milliseconds: createdMs)
        )
    }

    /// Every recorded window of every reference heard by a placed scanner, in the rows
    /// ``AppDatabase/referencePoints(grouping:)`` reads (the path loss: the tag's power when
    /// recorded − `statistic`).
    static func windows(_ sql: any StoreTransaction, reading statistic: TagRSSIStatistic) throws -> [StoreRow] {
        try sql.rows("""
            SELECT r.id AS point, w.window_end_ms, w.scanner_id, r.tx_power - \(statistic.sql(sighting: "w")) AS loss, r.floor_id, r.x, r.y, r.z
            FROM tag_reference_window w JOIN tag_reference r ON r.id = w.reference_id
            JOIN scanner_placement p ON p.scanner_id = w.scanner_id
            ORDER BY r.id, w.window_end_ms
            """, [])
    }

    /// What changes when a reference is added, deleted or gains a window, in a few numbers (a
    /// part of ``BeaconTableSignature``).
    static func signatureTotals(_ sql: any StoreTransaction) throws -> [Double] {
        guard let row = try sql.row("""
            SELECT (SELECT COUNT(*) FROM tag_reference) AS refs, (SELECT COALESCE(SUM(CAST(id AS DOUBLE PRECISION)), 0) FROM tag_reference) AS ids,
                   (SELECT COUNT(*) FROM tag_reference_window) AS windows
            """, []) else { return [] }
        return [try row.double("refs"), try row.double("ids"), try row.double("windows")]
    }
}
