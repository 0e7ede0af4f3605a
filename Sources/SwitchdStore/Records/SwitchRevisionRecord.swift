import Foundation
import GRDB
import ScanContract

/// A `switch_revision` row: one revision of a scanner's ``ScanSwitch``.
struct SwitchRevisionRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "switch_revision"

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

    enum CodingKeys: String, CodingKey {
        case scannerID = "scanner_id", revision, scanning, mode, roomID = "room_id", locationID = "location_id"
        case storeData = "store_data", stopAfterScans = "stop_after_scans", stopAfterSeconds = "stop_after_seconds"
        case changedMs = "changed_ms", scansCompleted = "scans_completed", stoppedBy = "stopped_by"
        case allowBSSIDs = "allow_bssids", allowSSIDs = "allow_ssids"
    }

    enum Columns {
        static let scannerID = Column(CodingKeys.scannerID)
        static let revision = Column(CodingKeys.revision)
        static let scansCompleted = Column(CodingKeys.scansCompleted)
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

    /// The latest revision of one scanner's switch.
    static func current(_ db: Database, of scannerID: ScannerID) throws -> ScanSwitch? {
        try SwitchRevisionRecord
            .filter(Columns.scannerID == scannerID.rawValue)
            .order(Columns.revision.desc)
            .fetchOne(db)?
            .scanSwitch()
    }

    /// One revision of a scanner's switch, as stored now.
    static func revision(_ db: Database, _ revision: Int, of scannerID: ScannerID) throws -> ScanSwitch? {
        try SwitchRevisionRecord.fetchOne(db, key: [Columns.scannerID.name: scannerID.rawValue, Columns.revision.name: revision])?
            .scanSwitch()
    }

    /// The latest revision of every scanner's switch.
    static func currentOfEveryScanner(_ db: Database) throws -> [ScanSwitch] {
        try SwitchRevisionRecord.fetchAll(db, sql: """
            SELECT * FROM switch_revision AS r
            WHERE r.revision = (SELECT MAX(revision) FROM switch_revision WHERE scanner_id = r.scanner_id)
            """).map { try $0.scanSwitch() }
    }

    /// Stores a revision's survey progress (``ScanSwitch/scansCompleted``), which is not a revision.
    static func updateProgress(_ db: Database, of scanSwitch: ScanSwitch) throws {
        try SwitchRevisionRecord
            .filter(Columns.scannerID == scanSwitch.scannerID.rawValue && Columns.revision == scanSwitch.revision)
            .updateAll(db, Columns.scansCompleted.set(to: scanSwitch.scansCompleted))
    }
}
