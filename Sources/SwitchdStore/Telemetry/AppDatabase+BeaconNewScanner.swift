import Foundation
import ScanContract

extension AppDatabase {
    /// Finds the registered beacons heard by a placed scanner that had not heard them for `gap`:
    /// among the sightings stored since the last look (by sighting ID), each beacon and placed
    /// scanner pair's first one is new when the pair's sighting before it (if any) ended `gap` or
    /// more earlier, and the scanner had been reporting sightings for `gap` before it (a scanner
    /// just installed or placed hears every beacon for the first time: that is no news). Each
    /// raises one `beaconNewScanner` event with the scanner, the beacon, its floor and room,
    /// timed at that sighting's end; the pair's next sightings are not new. Time is the
    /// sightings' own (the scanners' clocks). Returns the events, in beacon and scanner order.
    package func markNewBeaconScanners(after gap: Duration) async throws -> [PresenceEvent] {
        let gapMs = gap.components.seconds * 1000 + gap.components.attoseconds / 1_000_000_000_000_000
        let (cache, generation) = (outlineCache, outlineCache.generation)
        return try await writeStatements { sql in
            try sql.lock(Self.beaconHealthLock)
            let checked = try sql.row("SELECT checked_sighting_id FROM beacon_hearer_check WHERE id = 1", [])?.int64("checked_sighting_id") ?? 0
            guard let newest = try sql.row("SELECT MAX(id) AS newest FROM sighting", [])?.optionalInt64("newest"), newest > checked else { return [] }
            let pairs = try sql.rows("""
                SELECT s.beacon_id, s.scanner_id, MIN(s.window_end_ms) AS first_ms, MAX(s.window_end_ms) AS last_ms
                FROM sighting s JOIN scanner_placement p ON p.scanner_id = s.scanner_id
                WHERE s.id > ? AND s.id <= ? AND s.beacon_id IS NOT NULL
                GROUP BY s.beacon_id, s.scanner_id ORDER BY s.beacon_id, s.scanner_id
                """, [.integer(checked), .integer(newest)])
            var events: [PresenceEvent] = []
            for pair in pairs {
                let (beaconID, scanner) = (StoreValue.integer(try pair.int64("beacon_id")), try pair.string("scanner_id"))
                let (first, last) = (try pair.int64("first_ms"), try pair.int64("last_ms"))
                let known = try sql.row(
                    "SELECT last_heard_ms FROM beacon_hearer WHERE beacon_id = ? AND scanner_id = ?", [beaconID, .text(scanner)]
                )?.int64("last_heard_ms")
                // A pair the look has not met yet: its history before the sightings read now.
                let before = try known ?? sql.row("""
                    SELECT MAX(window_end_ms) AS before_ms FROM sighting WHERE beacon_id = ? AND scanner_id = ? AND window_end_ms < ? AND id <= ?
                    """, [beaconID, .text(scanner), .integer(first), .integer(checked)])?.optionalInt64("before_ms")
                try sql.execute("""
                    INSERT INTO beacon_hearer (beacon_id, scanner_id, last_heard_ms) VALUES (?, ?, ?)
                    ON CONFLICT (beacon_id, scanner_id) DO UPDATE SET last_heard_ms = excluded.last_heard_ms
                    """, [beaconID, .text(scanner), .integer(max(known ?? last, last))])
                guard before.map({ $0 <= first - gapMs }) ?? true else { continue }
                guard try sql.row(
                    "SELECT 1 AS one FROM sighting WHERE scanner_id = ? AND window_end_ms <= ? LIMIT 1", [.text(scanner), .integer(first - gapMs)]
                ) != nil else { continue }
                guard let beacon = try sql.row("SELECT id, floor_id, x, y FROM beacon WHERE id = ?", [beaconID]) else { continue }
                events.append(try Self.beaconEvent(
                    .beaconNewScanner, of: beacon, at: first, scannerID: scanner, outlines: cache, generation: generation, in: sql
                ))
            }
            try sql.execute("""
                INSERT INTO beacon_hearer_check (id, checked_sighting_id) VALUES (1, ?)
                ON CONFLICT (id) DO UPDATE SET checked_sighting_id = excluded.checked_sighting_id
                """, [.integer(newest)])
            return events
        }
    }
}
