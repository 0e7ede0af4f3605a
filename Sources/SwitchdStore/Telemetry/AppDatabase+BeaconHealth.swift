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
                DELETE FROM beacon_health WHERE EXISTS (
                    SELECT 1 FROM sighting WHERE sighting.beacon_id = beacon_health.beacon_id AND sighting.window_end_ms > beacon_health.last_heard_ms)
                """, [])
            let beacons = try sql.rows("""
                SELECT id, floor_id, x, y FROM beacon WHERE id NOT IN (SELECT beacon_id FROM beacon_health) ORDER BY id
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
                try sql.execute("INSERT INTO beacon_health (beacon_id, last_heard_ms) VALUES (?, ?)", [id, .integer(last)])
                let floorID = try beacon.int64("floor_id")
                let roomID = try Self.room(
                    at: try beacon.double("x"), try beacon.double("y"), onFloor: floorID, outlines: cache, generation: generation, in: sql
                )
                var record = PresenceEventRecord(batteryLowOf: .beacon(try beacon.int64("id")), floorID: floorID, time: Date(milliseconds: last + silenceMs))
                record.kind = PresenceEventKind.beaconSilent.rawValue
                record.roomID = roomID
                events.append(try record.inserted(sql).event())
            }
            return events
        }
    }
}
