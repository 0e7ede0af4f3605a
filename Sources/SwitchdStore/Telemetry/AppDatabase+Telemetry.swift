import Foundation
import ScanContract

extension AppDatabase {
    /// Stores each report of `reports` as its tag's or registered beacon's latest telemetry
    /// (reports of identities neither registered as a tag nor as a beacon are skipped, and a
    /// report older than the one kept is too: two scanners may hear one beacon); raises
    /// `batteryLow` (``BatteryLowThreshold``) when a report takes the battery below the
    /// threshold, returning the events stored (a beacon's with its floor and the room holding
    /// it). Runs inside the caller's transaction.
    static func storeTelemetry(
        _ reports: [HeardTelemetry], from scanner: ScannerID, threshold: BatteryLowThreshold, outlines: RoomOutlineCache, generation: UInt64,
        in sql: any StoreTransaction
    ) throws -> [PresenceEvent] {
        var events: [PresenceEvent] = []
        for report in reports.sorted(by: { $0.heardAt < $1.heardAt }) {
            guard let subject = try telemetrySubject(of: report.identity, in: sql) else { continue }
            let kept = try sql.row(
                "SELECT reported_ms, battery_low FROM emitter_telemetry WHERE \(subject.column) = ?", [.integer(subject.id)]
            )
            if let kept, try kept.int64("reported_ms") > report.heardAt.milliseconds { continue }
            let wasLow = try kept?.bool("battery_low") ?? false
            let low = threshold.isLow(after: report.batteryMillivolts, wasLow: wasLow)
            try sql.execute("""
                INSERT INTO emitter_telemetry (\(subject.column), scanner_id, reported_ms, battery_mv, temperature, advertisement_count, uptime_s, battery_low)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (\(subject.column)) DO UPDATE SET scanner_id = excluded.scanner_id, reported_ms = excluded.reported_ms,
                    battery_mv = excluded.battery_mv, temperature = excluded.temperature,
                    advertisement_count = excluded.advertisement_count, uptime_s = excluded.uptime_s, battery_low = excluded.battery_low
                """, [
                    .integer(subject.id), .text(scanner.rawValue), .integer(report.heardAt.milliseconds), StoreValue(report.batteryMillivolts),
                    StoreValue(report.temperatureCelsius), .integer(report.advertisementCount), .real(report.uptimeSeconds), .boolean(low),
                ])
            guard low, !wasLow else { continue }
            var record = PresenceEventRecord(batteryLowOf: subject, floorID: nil, time: report.heardAt)
            if case .beacon(let id) = subject, let beacon = try sql.row("SELECT floor_id, x, y FROM beacon WHERE id = ?", [.integer(id)]) {
                let floorID = try beacon.int64("floor_id")
                record.floorID = floorID
                record.roomID = try room(
                    at: try beacon.double("x"), try beacon.double("y"), onFloor: floorID, outlines: outlines, generation: generation, in: sql
                )
            }
            events.append(try record.inserted(sql).event())
        }
        return events
    }

    /// The tag registered with `identity`, else the beacon registered with it (an iBeacon).
    private static func telemetrySubject(of identity: TagIdentity, in sql: any StoreTransaction) throws -> TelemetrySubject? {
        if let tagID = try TagRecord.fetch(sql, identity: identity)?.id { return .tag(tagID) }
        guard case .iBeacon(let id) = identity,
              let beaconID = try BeaconRecord.holder(sql, uuid: id.uuid, major: Int(id.major), minor: Int(id.minor)) else { return nil }
        return .beacon(beaconID)
    }

    /// The latest telemetry of each of `subjects` that has some, by subject.
    static func telemetry(of subjects: [TelemetrySubject], in sql: any StoreTransaction) throws -> [TelemetrySubject: EmitterTelemetry] {
        var found: [TelemetrySubject: EmitterTelemetry] = [:]
        for subject in subjects {
            guard let row = try sql.row("""
                SELECT scanner_id, reported_ms, battery_mv, temperature, advertisement_count, uptime_s, battery_low
                FROM emitter_telemetry WHERE \(subject.column) = ?
                """, [.integer(subject.id)]) else { continue }
            found[subject] = EmitterTelemetry(
                batteryMillivolts: try row.optionalInt("battery_mv"), temperatureCelsius: try row.optionalDouble("temperature"),
                advertisementCount: try row.int64("advertisement_count"), uptimeSeconds: try row.double("uptime_s"),
                reportedAt: Date(milliseconds: try row.int64("reported_ms")), scannerID: try storedScannerID(try row.string("scanner_id")),
                batteryLow: try row.bool("battery_low")
            )
        }
        return found
    }

    /// The latest telemetry of a tag or a beacon; nil when none was forwarded.
    package func telemetry(of subject: TelemetrySubject) async throws -> EmitterTelemetry? {
        try await readStatements { sql in try Self.telemetry(of: [subject], in: sql)[subject] }
    }
}

/// One tag's or beacon's latest telemetry with what to call it (``AppDatabase/emitterTelemetry()``).
package struct TelemetryEntry: Hashable, Sendable {
    package var subject: TelemetrySubject
    /// The tag's name; for a beacon its `name` metadata, else `Beacon <major>.<minor>`.
    package var name: String
    package var telemetry: EmitterTelemetry
}

extension AppDatabase {
    /// Every tag's and beacon's latest telemetry, tags first, each by ID.
    package func emitterTelemetry() async throws -> [TelemetryEntry] {
        try await readStatements { sql in
            let rows = try sql.rows("""
                SELECT t.tag_id, t.beacon_id, tag.name AS tag_name, beacon.major, beacon.minor, beacon.metadata
                FROM emitter_telemetry AS t LEFT JOIN tag ON tag.id = t.tag_id LEFT JOIN beacon ON beacon.id = t.beacon_id
                ORDER BY t.beacon_id IS NOT NULL, t.tag_id, t.beacon_id
                """, [])
            var entries: [TelemetryEntry] = []
            for row in rows {
                let subject: TelemetrySubject
                let name: String
                if let tagID = try row.optionalInt64("tag_id") {
                    subject = .tag(tagID)
                    name = try row.string("tag_name")
                } else {
                    let beaconID = try row.int64("beacon_id")
                    subject = .beacon(beaconID)
                    let metadata = try JSONCoding.decoder().decode([String: String].self, from: Data(try row.string("metadata").utf8))
                    let (major, minor) = (try row.int("major"), try row.int("minor"))
                    name = metadata["name"] ?? "Beacon \(major).\(minor)"
                }
                guard let telemetry = try Self.telemetry(of: [subject], in: sql)[subject] else { continue }
                entries.append(TelemetryEntry(subject: subject, name: name, telemetry: telemetry))
            }
            return entries
        }
    }
}
