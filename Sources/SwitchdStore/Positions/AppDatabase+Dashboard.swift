import Foundation
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
        try await readStatements { sql in
            let counts = try Self.dashboardCounts(sql, since: since, onlineSince: now.addingTimeInterval(-Dashboard.onlineWindowSeconds))
            let recent = try Self.recentActivity(sql, limit: Dashboard.recentLimit)
            let dwell = try Self.dwell(sql, since: since, counter: counter)
            return Dashboard(time: now, since: since, counts: counts, recent: recent, dwell: dwell)
        }
    }

    /// The column `n` of the statement's one row.
    private static func count(_ sql: any StoreTransaction, _ statement: String, _ values: [StoreValue] = []) throws -> Int {
        try sql.row(statement, values)?.int("n") ?? 0
    }

    private static func dashboardCounts(_ sql: any StoreTransaction, since: Date, onlineSince: Date) throws -> DashboardCounts {
        DashboardCounts(
            // A deleted scanner's batches stay: only registered scanners count (see DashboardSQL).
            scannersOnline: try count(sql, DashboardSQL.scannersOnline, [.integer(onlineSince.milliseconds), .integer(onlineSince.milliseconds)]),
            scanners: try count(sql, DashboardSQL.scanners),
            readingsToday: try count(sql, DashboardSQL.readingsSince, [.integer(since.milliseconds)]),
            positionsToday: try count(sql, DashboardSQL.positionsSince, [.integer(since.milliseconds)]),
            locationsSurveyed: try count(sql, DashboardSQL.locationsSurveyed),
            locations: try count(sql, DashboardSQL.locations)
        )
    }

    /// The newest batches that stored readings (a locate batch keeping nothing is no news) and
    /// switch changes (a scanner's first revision, made with it, is no change), merged newest first.
    private static func recentActivity(_ sql: any StoreTransaction, limit: Int) throws -> [ActivityEntry] {
        var entries: [ActivityEntry] = []
        let batches = try sql.rows(DashboardSQL.recentBatches, [StoreValue(limit)])
        for row in batches {
            let stored = try row.int("stored")
            let discarded = try row.bool("discarded") ? 1 : 0
            let mode = try row.optionalString("mode")
            var summary = "stored \(stored) reading\(stored == 1 ? "" : "s")" + (mode.map { " (\($0))" } ?? "")
            if discarded > 0 { summary += ", \(discarded) not kept" }
            entries.append(ActivityEntry(
                time: Date(milliseconds: try row.int64("received_ms")), kind: .upload, scannerID: try scannerID(row.string("scanner_id")),
                summary: summary
            ))
        }
        let switches = try sql.rows(DashboardSQL.recentSwitches, [StoreValue(limit)])
        for row in switches {
            let scanning = try row.bool("scanning")
            let mode = try row.string("mode")
            let location = try row.optionalInt64("location_id")
            let place = mode == "survey" ? location.map { " at location \($0)" } ?? "" : ""
            let summary = scanning ? "switch on: \(mode)\(place)" : "switch off"
            entries.append(ActivityEntry(
                time: Date(milliseconds: try row.int64("changed_ms")), kind: .switch, scannerID: try scannerID(row.string("scanner_id")),
                summary: summary
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
    /// ``ItemSpot/nearRadiusMetres`` of each position), over the positions since `since`: the
    /// scanners' and the tags' (a visitor's badge is a visitor too), each one's its own track.
    private static func dwell(_ sql: any StoreTransaction, since: Date, counter: DwellCounter) throws -> DwellFigures {
        let items = try BeaconRecord.fetchBeacons(sql).filter(\.isItem)
        let spots = items.map { ItemSpot(id: $0.id, floorID: $0.floorID, x: $0.x, y: $0.y) }
        var roomSamples: [DwellSample] = []
        var itemSamples: [DwellSample] = []
        func sample(_ row: StoreRow, track: String) throws {
            let time = Date(milliseconds: try row.int64("time_ms"))
            roomSamples.append(DwellSample(track: track, time: time, place: try row.optionalInt64("room_id")))
            let item = ItemSpot.nearest(to: try row.double("x"), try row.double("y"), floorID: try row.int64("floor_id"), among: spots)
            itemSamples.append(DwellSample(track: track, time: time, place: item))
        }
        for row in try sql.rows(DashboardSQL.dwellPositions, [.integer(since.milliseconds)]) {
            try sample(row, track: try row.string("scanner_id"))
        }
        // Tag positions have no time index: the window starts at the first key at or after
        // `since` (they are stored about in time order, as retention assumes).
        let firstTagPosition = try firstKey(atOrAfter: since.milliseconds, table: "tag_position", key: "id", column: "time_ms", in: sql)
        for row in try sql.rows(DashboardSQL.dwellTagPositions, [.integer(firstTagPosition), .integer(since.milliseconds)]) {
            // A space is never in a scanner ID, so a tag's track is never a scanner's.
            try sample(row, track: "tag \(try row.int64("tag_id"))")
        }
        let roomTallies = counter.count(roomSamples)
        let itemTallies = counter.count(itemSamples)
        let rooms = try RoomRecord.fetchRooms(sql).compactMap { room -> PlaceDwell? in
            guard let tally = roomTallies[room.id] else { return nil }
            return PlaceDwell(id: room.id, name: room.name, floorID: room.floorID, visits: tally.visits, seconds: tally.seconds)
        }
        let itemFigures = items.compactMap { item -> PlaceDwell? in
            guard let tally = itemTallies[item.id] else { return nil }
            return PlaceDwell(id: item.id, name: item.itemName, floorID: item.floorID, visits: tally.visits, seconds: tally.seconds)
        }
        return DwellFigures(rooms: rooms, items: itemFigures)
    }
}
