import Foundation
import ScanContract

/// A `switch_revision` row: one revision of a scanner's ``ScanSwitch``. Written and read through
/// ``StoreTransaction`` in the SQL both databases speak; bodies still on GRDB reach it through
/// ``SQLiteTransaction``.
struct SwitchRevisionRecord {
    static let columns = """
        scanner_id, revision, scanning, mode, room_id, location_id, store_data, stop_after_scans, stop_after_seconds, \
        changed_ms, scans_completed, stopped_by, allow_bssids, allow_ssids
        """

    var scannerID: String
    var revision: Int
    var scanning: Bool
    var mode: String
    var roomID: Int64?
    var locationID: Int64?
    var storeData: Bool
    var stopAfterScans: Int?
    var stopAfterSeconds: Double?
    var changedMs: Int64
    var scansCompleted: Int
    var stoppedBy: String?
    /// JSON arrays; NULL when the switch has no allow-list.
    var allowBSSIDs: String?
    var allowSSIDs: String?

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        scannerID = try row.string("scanner_id")
        revision = try row.int("revision")
        scanning = try row.bool("scanning")
        mode = try row.string("mode")
        roomID = try row.optionalInt64("room_id")
        locationID = try row.optionalInt64("location_id")
        storeData = try row.bool("store_data")
        stopAfterScans = try row.optionalInt("stop_after_scans")
        stopAfterSeconds = try row.optionalDouble("stop_after_seconds")
        changedMs = try row.int64("changed_ms")
        scansCompleted = try row.int("scans_completed")
        stoppedBy = try row.optionalString("stopped_by")
        allowBSSIDs = try row.optionalString("allow_bssids")
        allowSSIDs = try row.optionalString("allow_ssids")
    }

    init(_ scanSwitch: ScanSwitch) {
        scannerID = scanSwitch.scannerID.rawValue
        revision = scanSwitch.revision
        scanning = scanSwitch.scanning
        mode = scanSwitch.mode.rawValue
        roomID = scanSwitch.roomID
        locationID = scanSwitch.locationID
        storeData = scanSwitch.storeData
        switch scanSwitch.stopAfter {
        case .scans(let count)?: stopAfterScans = count
        case .seconds(let limit)?: stopAfterSeconds = limit
        case nil: break
        }
        changedMs = scanSwitch.changedAt.milliseconds
        scansCompleted = scanSwitch.scansCompleted
        stoppedBy = scanSwitch.stoppedBy?.rawValue
        if let list = scanSwitch.allowList {
            allowBSSIDs = Self.jsonText(list.bssids.map(\.description))
            allowSSIDs = Self.jsonText(list.ssids)
        }
    }

    private static func jsonText(_ values: [String]) -> String {
        // Encoding an array of strings cannot fail.
        String(decoding: (try? JSONEncoder().encode(values)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored value is not one switchd writes.
    func scanSwitch() throws -> ScanSwitch {
        let scanner = try storedScannerID(scannerID)
        guard let mode = ScanMode(rawValue: mode) else {
            throw StoreError.corruptRow("switch_revision of \(scannerID) holds mode \"\(self.mode)\"")
        }
        var stopReason: StopReason?
        if let stoppedBy {
            guard let reason = StopReason(rawValue: stoppedBy) else {
                throw StoreError.corruptRow("switch_revision of \(scannerID) holds stopped_by \"\(stoppedBy)\"")
            }
            stopReason = reason
        }
        var stopAfter: StopCondition?
        if let stopAfterScans {
            stopAfter = .scans(stopAfterScans)
        } else if let stopAfterSeconds {
            stopAfter = .seconds(stopAfterSeconds)
        }
        var allowList: ScanAllowList?
        if let allowBSSIDs, let allowSSIDs {
            do {
                allowList = ScanAllowList(
                    bssids: try JSONDecoder().decode([BSSID].self, from: Data(allowBSSIDs.utf8)),
                    ssids: try JSONDecoder().decode([String].self, from: Data(allowSSIDs.utf8))
                )
            } catch {
                throw StoreError.corruptRow("switch_revision of \(scannerID) holds an unreadable allow-list: \(error)")
            }
        }
        return ScanSwitch(
            scannerID: scanner, scanning: scanning, mode: mode, roomID: roomID, locationID: locationID,
            storeData: storeData, stopAfter: stopAfter, revision: revision,
            changedAt: Date(milliseconds: changedMs), scansCompleted: scansCompleted, stoppedBy: stopReason, allowList: allowList
        )
    }

    /// Stores the revision.
    ///
    /// - Throws: the driver's error when the scanner already has this revision (the primary key).
    func insert(_ sql: any StoreTransaction) throws {
        try sql.execute("INSERT INTO switch_revision (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
            .text(scannerID), .integer(Int64(revision)), .boolean(scanning), .text(mode), StoreValue(roomID), StoreValue(locationID),
            .boolean(storeData), StoreValue(stopAfterScans), StoreValue(stopAfterSeconds), .integer(changedMs),
            .integer(Int64(scansCompleted)), StoreValue(stoppedBy), StoreValue(allowBSSIDs), StoreValue(allowSSIDs),
        ])
    }

    /// The latest revision of one scanner's switch.
    static func current(_ sql: any StoreTransaction, of scannerID: ScannerID) throws -> ScanSwitch? {
        try sql.row(
            "SELECT \(columns) FROM switch_revision WHERE scanner_id = ? ORDER BY revision DESC LIMIT 1", [.text(scannerID.rawValue)]
        ).map { try SwitchRevisionRecord(row: $0).scanSwitch() }
    }

    /// One revision of a scanner's switch, as stored now.
    static func revision(_ sql: any StoreTransaction, _ revision: Int, of scannerID: ScannerID) throws -> ScanSwitch? {
        try sql.row(
            "SELECT \(columns) FROM switch_revision WHERE scanner_id = ? AND revision = ?", [.text(scannerID.rawValue), .integer(Int64(revision))]
        ).map { try SwitchRevisionRecord(row: $0).scanSwitch() }
    }

    /// The latest revision of every scanner's switch.
    static func currentOfEveryScanner(_ sql: any StoreTransaction) throws -> [ScanSwitch] {
        try sql.rows("""
            SELECT \(columns) FROM switch_revision AS r
            WHERE r.revision = (SELECT MAX(revision) FROM switch_revision WHERE scanner_id = r.scanner_id)
            """, []).map { try SwitchRevisionRecord(row: $0).scanSwitch() }
    }

    /// Stores a revision's survey progress (``ScanSwitch/scansCompleted``), which is not a revision.
    static func updateProgress(_ sql: any StoreTransaction, of scanSwitch: ScanSwitch) throws {
        try sql.execute("UPDATE switch_revision SET scans_completed = ? WHERE scanner_id = ? AND revision = ?", [
            .integer(Int64(scanSwitch.scansCompleted)), .text(scanSwitch.scannerID.rawValue), .integer(Int64(scanSwitch.revision)),
        ])
    }
}
