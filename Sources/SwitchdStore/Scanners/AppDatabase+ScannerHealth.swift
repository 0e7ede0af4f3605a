import Foundation
import ScanContract

extension AppDatabase {
    /// Held by the transactions that read and change `scanner_health.online`, so a report and
    /// the offline check on another instance settle one after the other.
    static let scannerHealthLock = "scanner-health"

    /// Stores `report` as `scanner`'s latest, received at `now`, and marks it online. A scanner
    /// that was offline gets a `scannerOnline` event, stored in the same transaction and
    /// returned; its first report ever raises none.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown scanner; what the database throws.
    package func recordScannerReport(_ report: ScannerCounters, of scanner: ScannerID, at now: Date) async throws -> PresenceEvent? {
        let radios = try report.radios.map { String(decoding: try JSONCoding.encoder().encode($0), as: UTF8.self) }
        let skew = report.sentAt.map { $0.milliseconds - now.milliseconds }
        let unapplied = try report.unappliedSettings.map { String(decoding: try JSONCoding.encoder().encode($0), as: UTF8.self) }
        let applied = try report.appliedSettings.map { String(decoding: try JSONCoding.encoder().encode($0), as: UTF8.self) }
        return try await writeStatements { sql in
            try sql.lock(Self.scannerHealthLock)
            let id = StoreValue.text(scanner.rawValue)
            guard try sql.row("SELECT id FROM scanner WHERE id = ?", [id]) != nil else { throw StoreError.notFound("no scanner \(scanner)") }
            let wasOnline = try sql.row("SELECT online FROM scanner_health WHERE scanner_id = ?", [id])?.bool("online")
            try sql.execute("""
                INSERT INTO scanner_health (scanner_id, reported_ms, online, version, radios, spool_depth, dropped_readings, clock_skew_ms,
                    applied_settings_revision, unapplied_settings, applied_settings)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (scanner_id) DO UPDATE SET reported_ms = excluded.reported_ms, online = excluded.online,
                    version = excluded.version, radios = excluded.radios, spool_depth = excluded.spool_depth,
                    dropped_readings = excluded.dropped_readings, clock_skew_ms = excluded.clock_skew_ms,
                    applied_settings_revision = excluded.applied_settings_revision,
                    unapplied_settings = excluded.unapplied_settings, applied_settings = excluded.applied_settings
                """, [
                    id, .integer(now.milliseconds), .boolean(true), StoreValue(report.version), StoreValue(radios),
                    StoreValue(report.spoolDepth), StoreValue(report.droppedReadings), StoreValue(skew),
                    StoreValue(report.settingsRevision), StoreValue(unapplied), StoreValue(applied),
                ])
            guard wasOnline == false else { return nil }
            let event = NewPresenceEvent(kind: .scannerOnline, floor: nil, roomID: nil, time: now, positionID: nil)
            return try PresenceEventRecord(event, of: .scanner(scanner)).inserted(sql).event()
        }
    }

    /// Marks offline every online scanner whose last report is `silence` or more before `now`,
    /// each with a `scannerOffline` event at its last report's time plus `silence`; returns the
    /// events, in scanner order.
    package func markSilentScannersOffline(silence: Duration, at now: Date) async throws -> [PresenceEvent] {
        let silenceMs = silence.components.seconds * 1000 + (silence.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return try await writeStatements { sql in
            try sql.lock(Self.scannerHealthLock)
            let silent = try sql.rows(
                "SELECT scanner_id, reported_ms FROM scanner_health WHERE online = ? AND reported_ms <= ? ORDER BY scanner_id",
                [.boolean(true), .integer(now.milliseconds - silenceMs)]
            )
            var events: [PresenceEvent] = []
            for row in silent {
                let scanner = try storedScannerID(try row.string("scanner_id"))
                try sql.execute("UPDATE scanner_health SET online = ? WHERE scanner_id = ?", [.boolean(false), .text(scanner.rawValue)])
                let time = Date(milliseconds: try row.int64("reported_ms") + silenceMs)
                let event = NewPresenceEvent(kind: .scannerOffline, floor: nil, roomID: nil, time: time, positionID: nil)
                events.append(try PresenceEventRecord(event, of: .scanner(scanner)).inserted(sql).event())
            }
            return events
        }
    }

    /// The oldest last report of an online scanner: the first to go offline if nothing more is
    /// heard; nil when none is online.
    package func oldestOnlineScannerReport() async throws -> Date? {
        try await readStatements { sql in
            try sql.row("SELECT MIN(reported_ms) AS oldest FROM scanner_health WHERE online = ?", [.boolean(true)])?
                .optionalInt64("oldest").map(Date.init(milliseconds:))
        }
    }

    /// The health of each of `scanners` (``ScannerHealth``): offline with nothing else for one
    /// that never reported; its switch's mode; whether the versions reported differ.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` for radios that are not the JSON switchd writes.
    package func scannerHealth(of scanners: [ScannerID]) async throws -> [ScannerID: ScannerHealth] {
        try await readStatements { sql in
            let versions = try Self.scannerVersionCount(in: sql)
            var health: [ScannerID: ScannerHealth] = [:]
            for scanner in scanners {
                let id = StoreValue.text(scanner.rawValue)
                var entry = ScannerHealth(online: false, versionMismatch: versions > 1)
                if let row = try sql.row("""
                    SELECT online, reported_ms, version, radios, spool_depth, dropped_readings, clock_skew_ms,
                        applied_settings_revision, unapplied_settings, applied_settings
                    FROM scanner_health WHERE scanner_id = ?
                    """, [id]) {
                    entry.online = try row.bool("online")
                    entry.lastSeen = Date(milliseconds: try row.int64("reported_ms"))
                    entry.version = try row.optionalString("version")
                    entry.radios = try row.optionalString("radios").map { text in
                        do {
                            return try JSONCoding.decoder().decode([RadioHealth].self, from: Data(text.utf8))
                        } catch {
                            throw StoreError.corruptRow("scanner \(scanner)'s stored radios are not readable: \(error)")
                        }
                    }
                    entry.spoolDepth = try row.int("spool_depth")
                    entry.droppedReadings = try row.int("dropped_readings")
                    entry.clockSkew = try row.optionalInt64("clock_skew_ms").map { Double($0) / 1000 }
                    entry.appliedRevision = try row.optionalInt("applied_settings_revision")
                    entry.unappliedSettings = try row.optionalString("unapplied_settings").map { text in
                        do {
                            return try JSONCoding.decoder().decode([String: String].self, from: Data(text.utf8))
                        } catch {
                            throw StoreError.corruptRow("scanner \(scanner)'s stored unapplied settings are not readable: \(error)")
                        }
                    }
                    entry.appliedSettings = try row.optionalString("applied_settings").map { try Self.decodeSettings($0, of: scanner.rawValue) }
                }
                let fleet = try Self.storedSettings(of: Self.fleetScope, in: sql)
                let own = try Self.storedSettings(of: scanner.rawValue, in: sql)
                entry.settings = own?.settings
                let revision = max(fleet?.revision ?? 0, own?.revision ?? 0)
                entry.settingsRevision = revision == 0 ? nil : revision
                if let current = try sql.row(
                    "SELECT scanning, mode FROM switch_revision WHERE scanner_id = ? ORDER BY revision DESC LIMIT 1", [id]
                ) {
                    entry.mode = try current.bool("scanning") ? try current.string("mode") : "off"
                }
                health[scanner] = entry
            }
            return health
        }
    }

    /// How many different versions the scanners that reported one run.
    package func scannerVersionCount() async throws -> Int {
        try await readStatements { sql in try Self.scannerVersionCount(in: sql) }
    }

    private static func scannerVersionCount(in sql: any StoreTransaction) throws -> Int {
        try sql.row("SELECT COUNT(DISTINCT version) AS versions FROM scanner_health WHERE version IS NOT NULL", [])?.int("versions") ?? 0
    }
}
