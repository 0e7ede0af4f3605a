import Foundation
import GRDB
import Positioning
import ScanContract

extension AppDatabase {
    /// The admin's dashboard, read in one snapshot: counts since `since`, the newest activity,
    /// and dwell per room and per item from the positions computed since `since`.
    ///
    /// Every statement reads only the window (or the newest few rows) through an index, so the
    /// cost follows the window's traffic, not the history kept. Dwell reads every position of
    /// the window (scanner, time, floor, spot, room), so a long window over a busy site reads
    /// many rows; the figures keep no scanner.
    ///
    /// - Throws: ``StoreError/corruptRow(_:)`` when a stored scanner ID or beacon is not what switchd writes.
    package func dashboard(since: Date, now: Date, counter: DwellCounter = DwellCounter()) async throws -> Dashboard {
        try await read { db in
            let counts = try Self.dashboardCounts(db, since: since, onlineSince: now.addingTimeInterval(-Dashboard.onlineWindowSeconds))
            let recent = try Self.recentActivity(db, limit: Dashboard.recentLimit)
            let dwell = try Self.dwell(db, since: since, counter: counter)
            return Dashboard(time: now, since: since, counts: counts, recent: recent, dwell: dwell)
        }
    }

    private static func count(_ db: Database, _ sql: String, _ arguments: StatementArguments = []) throws -> Int {
        try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
    }

    private static func dashboardCounts(_ db: Database, since: Date, onlineSince: Date) throws -> DashboardCounts {
        DashboardCounts(
            // A deleted scanner's batches stay: only registered scanners count (see DashboardSQL).
            scannersOnline: try count(db, DashboardSQL.scannersOnline, [onlineSince.milliseconds, onlineSince.milliseconds]),
            scanners: try count(db, DashboardSQL.scanners),
            readingsToday: try count(db, DashboardSQL.readingsSince, [since.milliseconds]),
            positionsToday: try count(db, DashboardSQL.positionsSince, [since.milliseconds]),
            locationsSurveyed: try count(db, DashboardSQL.locationsSurveyed),
            locations: try count(db, DashboardSQL.locations)
        )
    }

    /// The newest batches that stored readings (a locate batch keeping nothing is no news) and
    /// switch changes (a scanner's first revision, made with it, is no change), merged newest first.
    private static func recentActivity(_ db: Database, limit: Int) throws -> [ActivityEntry] {
        var entries: [ActivityEntry] = []
        let batches = try Row.fetchAll(db, sql: DashboardSQL.recentBatches, arguments: [limit])
        for row in batches {
            let stored: Int = row["stored"]
            let discarded: Int = row["discarded"]
            let mode: String? = row["mode"]
            var summary = "stored \(stored) reading\(stored == 1 ? "" : "s")" + (mode.map { " (\($0))" } ?? "")
            if discarded > 0 { summary += ", \(discarded) not kept" }
            entries.append(ActivityEntry(
                time: Date(milliseconds: row["received_ms"]), kind: .upload, scannerID: try scannerID(row["scanner_id"]), summary: summary
            ))
        }
        let switches = try Row.fetchAll(db, sql: DashboardSQL.recentSwitches, arguments: [limit])
        for row in switches {
            let scanning: Bool = row["scanning"]
            let mode: String = row["mode"]
            let location: Int64? = row["location_id"]
            let place = mode == "survey" ? location.map { " at location \($0)" } ?? "" : ""
            let summary = scanning ? "switch on: \(mode)\(place)" : "switch off"
            entries.append(ActivityEntry(
                time: Date(milliseconds: row["changed_ms"]), kind: .switch, scannerID: try scannerID(row["scanner_id"]), summary: summary
            ))
        }
        // Newest first; within one millisecond an upload goes first, as it follows the switch it was scanned under.
        return Array(entries.sorted { ($0.time, $0.kind == .upload ? 1 : 0) > ($1.time, $1.kind == .upload ? 1 : 0) }.prefix(limit))
    }

    private static func scannerID(_ text: String) throws -> ScannerID {
        do {
            return try ScannerID(text)
        } catch {
            throw StoreError.corruptRow("scanner ID \"\(text.prefix(80))\": \(error.reason)")
        }
    }

    /// Stays per room (the room each position named) and per item (the item within
    /// ``ItemSpot/nearRadiusMetres`` of each position), over the positions since `since`.
    private static func dwell(_ db: Database, since: Date, counter: DwellCounter) throws -> DwellFigures {
        let items = try BeaconRecord.fetchBeacons(SQLiteTransaction(db: db)).filter(\.isItem)
        let spots = items.map { ItemSpot(id: $0.id, floorID: $0.floorID, x: $0.x, y: $0.y) }
        var roomSamples: [DwellSample] = []
        var itemSamples: [DwellSample] = []
        let rows = try Row.fetchCursor(db, sql: DashboardSQL.dwellPositions, arguments: [since.milliseconds])
        while let row = try rows.next() {
            let track: String = row["scanner_id"]
            let time = Date(milliseconds: row["time_ms"])
            roomSamples.append(DwellSample(track: track, time: time, place: row["room_id"]))
            let item = ItemSpot.nearest(to: row["x"], row["y"], floorID: row["floor_id"], among: spots)
            itemSamples.append(DwellSample(track: track, time: time, place: item))
        }
        let roomTallies = counter.count(roomSamples)
        let itemTallies = counter.count(itemSamples)
        let rooms = try RoomRecord.order(RoomRecord.Columns.id).fetchAll(db).compactMap { room -> PlaceDwell? in
            guard let id = room.id, let tally = roomTallies[id] else { return nil }
            return PlaceDwell(id: id, name: room.name, floorID: room.floorID, visits: tally.visits, seconds: tally.seconds)
        }
        let itemFigures = items.compactMap { item -> PlaceDwell? in
            guard let tally = itemTallies[item.id] else { return nil }
            return PlaceDwell(id: item.id, name: item.itemName, floorID: item.floorID, visits: tally.visits, seconds: tally.seconds)
        }
        return DwellFigures(rooms: rooms, items: itemFigures)
    }
}
