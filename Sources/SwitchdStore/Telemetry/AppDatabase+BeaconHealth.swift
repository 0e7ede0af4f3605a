import Foundation
import ScanContract

extension AppDatabase {
    /// Held by the silent-beacon check, so two instances do not raise one silence twice.
    static let beaconHealthLock = "beacon-health"

    /// Finds the registered beacons gone silent: not heard for `silence` by any scanner that
    /// used to hear it, while one of those scanners went on hearing others (a sighting of
    /// anything ending `silence` or more after the beacon's last). Each gets one `beaconSilent`
    /// event, timed at its last sighting's end plus `silence`, with its floor and room; one heard
    /// again is re-armed. Time is the sightings' own (the scanners' clocks): nothing here reads
    /// switchd's. Returns the events, in beacon order.
    package func markSilentBeacons(silence: Duration) async throws -> [PresenceEvent] {
        let silenceMs = silence.components.seconds * 1000 + silence.components.attoseconds / 1_000_000_000_000_000
        let (cache, generation) = (outlineCache, outlineCache.generation)
        return try await writeStatements { sql in
            try sql.lock(Self.beaconHealthLock)
            try sql.execute("""
                UPDATE beacon_health SET silent_last_heard_ms = NULL WHERE silent_last_heard_ms IS NOT NULL AND EXISTS (
                    SELECT 1 FROM sighting WHERE sighting.beacon_id = beacon_health.beacon_id AND sighting.window_end_ms > beacon_health.silent_last_heard_ms)
                """, [])
            let beacons = try sql.rows("""
                SELECT id, floor_id, x, y FROM beacon
                WHERE id NOT IN (SELECT beacon_id FROM beacon_health WHERE silent_last_heard_ms IS NOT NULL) ORDER BY id
                """, [])
            var events: [PresenceEvent] = []
            for beacon in beacons {
                let id = StoreValue.integer(try beacon.int64("id"))
                guard let last = try sql.row("SELECT MAX(window_end_ms) AS last FROM sighting WHERE beacon_id = ?", [id])?
                    .optionalInt64("last") else { continue }
                let latest = try sql.row("""
                    SELECT MAX(window_end_ms) AS latest FROM sighting
                    WHERE scanner_id IN (SELECT DISTINCT scanner_id FROM sighting WHERE beacon_id = ?)
                    """, [id])?.optionalInt64("latest")
                guard let latest, latest >= last + silenceMs else { continue }
                try sql.execute("""
                    INSERT INTO beacon_health (beacon_id, silent_last_heard_ms, faded) VALUES (?, ?, ?)
                    ON CONFLICT (beacon_id) DO UPDATE SET silent_last_heard_ms = excluded.silent_last_heard_ms
                    """, [id, .integer(last), .boolean(false)])
                events.append(try Self.beaconEvent(.beaconSilent, of: beacon, at: last + silenceMs, outlines: cache, generation: generation, in: sql))
            }
            return events
        }
    }
}

/// When a beacon has faded (`--beacon-fade-db`, `--beacon-fade-window`): at each scanner that
/// hears it, the median RSSI of the last ``window`` against that of the window before; faded
/// when the median of those drops is more than ``decibels``, and re-armed once it is back under
/// half of that. A scanner counts only with ``minimumSightings`` in each window.
package struct BeaconFadeRule: Hashable, Sendable {
    package var decibels: Double
    package var window: Duration
    package var minimumSightings: Int

    package static let defaultDecibels = 5.0
    package static let defaultWindowSeconds = 86_400.0

    package init(decibels: Double = Self.defaultDecibels, window: Duration = .seconds(Self.defaultWindowSeconds), minimumSightings: Int = 10) {
        self.decibels = decibels
        self.window = window
        self.minimumSightings = minimumSightings
    }
}

extension AppDatabase {
    /// Finds the registered beacons whose signal faded (``BeaconFadeRule``), each window ending at
    /// its own last sighting (the scanners' clocks): one `beaconFaded` event per fade, with the
    /// beacon's floor and room, timed at that sighting. Returns the events, in beacon order.
    package func markFadedBeacons(_ rule: BeaconFadeRule) async throws -> [PresenceEvent] {
        let windowMs = rule.window.components.seconds * 1000 + rule.window.components.attoseconds / 1_000_000_000_000_000
        let (cache, generation) = (outlineCache, outlineCache.generation)
        return try await writeStatements { sql in
            try sql.lock(Self.beaconHealthLock)
            let beacons = try sql.rows("""
                SELECT beacon.id, beacon.floor_id, beacon.x, beacon.y, COALESCE(health.faded, ?) AS faded FROM beacon
                LEFT JOIN beacon_health AS health ON health.beacon_id = beacon.id ORDER BY beacon.id
                """, [.boolean(false)])
            var events: [PresenceEvent] = []
            for beacon in beacons {
                let id = StoreValue.integer(try beacon.int64("id"))
                guard let last = try sql.row("SELECT MAX(window_end_ms) AS last FROM sighting WHERE beacon_id = ?", [id])?
                    .optionalInt64("last") else { continue }
                var recent: [String: [Double]] = [:], before: [String: [Double]] = [:]
                for row in try sql.rows(
                    "SELECT scanner_id, window_end_ms, median_rssi FROM sighting WHERE beacon_id = ? AND window_end_ms > ?", [id, .integer(last - 2 * windowMs)]
                ) {
                    let scanner = try row.string("scanner_id"), rssi = try row.double("median_rssi")
                    if try row.int64("window_end_ms") > last - windowMs { recent[scanner, default: []].append(rssi) } else { before[scanner, default: []].append(rssi) }
                }
                let drops = recent.compactMap { scanner, now -> Double? in
                    guard let then = before[scanner], then.count >= rule.minimumSightings, now.count >= rule.minimumSightings else { return nil }
                    return median(then) - median(now)
                }
                guard !drops.isEmpty else { continue }
                let drop = median(drops)
                let faded = try beacon.bool("faded")
                if !faded, drop > rule.decibels {
                    try sql.execute("""
                        INSERT INTO beacon_health (beacon_id, silent_last_heard_ms, faded) VALUES (?, NULL, ?)
                        ON CONFLICT (beacon_id) DO UPDATE SET faded = excluded.faded
                        """, [id, .boolean(true)])
                    events.append(try Self.beaconEvent(.beaconFaded, of: beacon, at: last, outlines: cache, generation: generation, in: sql))
                } else if faded, drop < rule.decibels / 2 {
                    try sql.execute("UPDATE beacon_health SET faded = ? WHERE beacon_id = ?", [.boolean(false), id])
                }
            }
            return events
        }
    }

    /// Stores a beacon's `beaconSilent`, `beaconFaded` or (with the scanner) `beaconNewScanner`
    /// at `timeMs`, with its floor and the room holding its position.
    static func beaconEvent(
        _ kind: PresenceEventKind, of beacon: StoreRow, at timeMs: Int64, scannerID: String? = nil, outlines: RoomOutlineCache, generation: UInt64,
        in sql: any StoreTransaction
    ) throws -> PresenceEvent {
        let floorID = try beacon.int64("floor_id")
        var record = PresenceEventRecord(batteryLowOf: .beacon(try beacon.int64("id")), floorID: floorID, time: Date(milliseconds: timeMs))
        record.kind = kind.rawValue
        record.scannerID = scannerID
        record.roomID = try room(at: try beacon.double("x"), try beacon.double("y"), onFloor: floorID, outlines: outlines, generation: generation, in: sql)
        return try record.inserted(sql).event()
    }
}

/// The middle value (the mean of the two middle ones for an even count); `values` is not empty.
private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
