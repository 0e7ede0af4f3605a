import Foundation
import GRDB
import ScanContract

/// How a ``ScanSwitch`` is kept: one `switch_revision` row per revision.
enum SwitchRevisionRow {
    static let columns = """
        scanner_id, revision, scanning, mode, room_id, location_id, store_data,
        stop_after_scans, stop_after_seconds, changed_ms, scans_completed, stopped_by
        """

    static let insertSQL = "INSERT INTO switch_revision (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// The latest revision of every scanner's switch.
    static let currentSQL = """
        SELECT \(columns) FROM switch_revision AS r
        WHERE r.revision = (SELECT MAX(revision) FROM switch_revision WHERE scanner_id = r.scanner_id)
        """

    static func arguments(_ scanSwitch: ScanSwitch) -> StatementArguments {
        var scans: Int?
        var seconds: Double?
        switch scanSwitch.stopAfter {
        case .scans(let count)?: scans = count
        case .seconds(let limit)?: seconds = limit
        case nil: break
        }
        return [
            scanSwitch.scannerID.rawValue, scanSwitch.revision, scanSwitch.scanning, scanSwitch.mode.rawValue,
            scanSwitch.roomID, scanSwitch.locationID, scanSwitch.storeData, scans, seconds,
            scanSwitch.changedAt.milliseconds, scanSwitch.scansCompleted, scanSwitch.stoppedBy?.rawValue,
        ]
    }

    /// Reads a row selected with ``columns``.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored value is not one switchd writes.
    static func scanSwitch(from row: Row) throws -> ScanSwitch {
        let scannerText: String = row[0]
        let modeText: String = row[3]
        let stoppedByText: String? = row[11]
        let scannerID = try storedScannerID(scannerText)
        guard let mode = ScanMode(rawValue: modeText) else {
            throw StoreError.corruptRow("switch_revision of \(scannerText) holds mode \"\(modeText)\"")
        }
        var stoppedBy: StopReason?
        if let stoppedByText {
            guard let reason = StopReason(rawValue: stoppedByText) else {
                throw StoreError.corruptRow("switch_revision of \(scannerText) holds stopped_by \"\(stoppedByText)\"")
            }
            stoppedBy = reason
        }
        var stopAfter: StopCondition?
        if let scans: Int = row[7] {
            stopAfter = .scans(scans)
        } else if let seconds: Double = row[8] {
            stopAfter = .seconds(seconds)
        }
        return ScanSwitch(
            scannerID: scannerID, scanning: row[2], mode: mode, roomID: row[4], locationID: row[5],
            storeData: row[6], stopAfter: stopAfter, revision: row[1],
            changedAt: Date(milliseconds: row[9]), scansCompleted: row[10], stoppedBy: stoppedBy
        )
    }
}

/// Reads a scanner ID back from a row; switchd only stores checked IDs.
///
/// - Throws: ``StoreError/corruptRow(_:)`` when the text is not a valid scanner ID.
func storedScannerID(_ text: String) throws -> ScannerID {
    do {
        return try ScannerID(text)
    } catch {
        throw StoreError.corruptRow("stored scanner ID \"\(text)\" \(error.reason)")
    }
}
