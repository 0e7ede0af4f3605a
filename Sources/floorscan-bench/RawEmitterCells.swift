import GRDBSQLite
import Harness

/// What switchd adds to `emitter_cell` for each batch it stores (one upsert per cell the batch's
/// readings fall in, in the batch's transaction), done the raw way for the like-for-like
/// baseline: the cells are added up in memory from the rows' values, then upserted with one
/// prepared statement. The SQL spells out the same upsert as switchd's, so the raw side writes the
/// same summary rows.
final class RawEmitterCells {
    private struct Key: Hashable {
        var kind: String
        var address: Int64
        var beaconUUID: [UInt8]
        var major: Int64
        var minor: Int64
        var mode: String
        var roomID: Int64
        var locationID: Int64
    }

    private struct Cell {
        var readings: Int64
        var rssiSum: Int64
        var maxRSSI: Int64
        var firstMs: Int64
        var lastMs: Int64
        var lastSSID: String?
    }

    /// Where each value the key and the sums need sits in a row of the baseline's column list.
    private let column: [String: Int]
    private let upsert: OpaquePointer?
    private var cells: [Key: Cell] = [:]

    init(_ db: SQLiteHandle, columns: [String]) throws {
        column = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
        upsert = try db.prepare("""
            INSERT INTO main.emitter_cell (
                kind, address, beacon_uuid, major, minor, mode, room_id, location_id,
                readings, rssi_sum, max_rssi, first_ms, last_ms, last_ssid
            ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (kind, address, beacon_uuid, major, minor, mode, room_id, location_id) DO UPDATE SET
                readings = readings + excluded.readings, rssi_sum = rssi_sum + excluded.rssi_sum,
                max_rssi = MAX(max_rssi, excluded.max_rssi), first_ms = MIN(first_ms, excluded.first_ms),
                last_ssid = CASE WHEN excluded.last_ms > last_ms THEN excluded.last_ssid ELSE last_ssid END,
                last_ms = MAX(last_ms, excluded.last_ms)
            """)
    }

    deinit { sqlite3_finalize(upsert) }

    /// Adds one inserted row (its values in the baseline's column order) to its cell.
    func add(_ row: [OpaquePointer?]) {
        func integer(_ name: String) -> Int64 { sqlite3_value_int64(row[column[name]!]) }
        func text(_ name: String) -> String? {
            guard let value = row[column[name]!], sqlite3_value_type(value) != SQLITE_NULL else { return nil }
            return String(cString: sqlite3_value_text(value))
        }
        let kind = text("kind") ?? ""
        let wifi = kind == "wifi"
        var beaconUUID: [UInt8] = []
        if !wifi, let value = row[column["beacon_uuid"]!], let blob = sqlite3_value_blob(value) {
            beaconUUID = Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_value_bytes(value))))
        }
        let key = Key(
            kind: kind, address: wifi ? integer("address") : 0, beaconUUID: beaconUUID,
            major: wifi ? 0 : integer("major"), minor: wifi ? 0 : integer("minor"),
            mode: text("mode") ?? "", roomID: integer("room_id"), locationID: integer("location_id")
        )
        let rssi = integer("rssi")
        let time = integer("time_ms")
        guard var cell = cells[key] else {
            cells[key] = Cell(readings: 1, rssiSum: rssi, maxRSSI: rssi, firstMs: time, lastMs: time, lastSSID: text("ssid"))
            return
        }
        cell.readings += 1
        cell.rssiSum += rssi
        cell.maxRSSI = max(cell.maxRSSI, rssi)
        cell.firstMs = min(cell.firstMs, time)
        if time > cell.lastMs {
            cell.lastMs = time
            cell.lastSSID = text("ssid")
        }
        cells[key] = cell
    }

    /// Upserts the cells added since the last save, in the caller's transaction, and forgets them.
    func save(_ db: SQLiteHandle) throws {
        for (key, cell) in cells {
            sqlite3_bind_text(upsert, 1, key.kind, -1, transient)
            sqlite3_bind_int64(upsert, 2, key.address)
            // Never a nil pointer: a Wi-Fi cell's empty blob is a blob, not NULL.
            _ = key.beaconUUID.withUnsafeBytes { sqlite3_bind_blob(upsert, 3, $0.baseAddress ?? UnsafeRawPointer(Self.empty.utf8Start), Int32($0.count), transient) }
            sqlite3_bind_int64(upsert, 4, key.major)
            sqlite3_bind_int64(upsert, 5, key.minor)
            sqlite3_bind_text(upsert, 6, key.mode, -1, transient)
            sqlite3_bind_int64(upsert, 7, key.roomID)
            sqlite3_bind_int64(upsert, 8, key.locationID)
            sqlite3_bind_int64(upsert, 9, cell.readings)
            sqlite3_bind_int64(upsert, 10, cell.rssiSum)
            sqlite3_bind_int64(upsert, 11, cell.maxRSSI)
            sqlite3_bind_int64(upsert, 12, cell.firstMs)
            sqlite3_bind_int64(upsert, 13, cell.lastMs)
            if let ssid = cell.lastSSID { sqlite3_bind_text(upsert, 14, ssid, -1, transient) } else { sqlite3_bind_null(upsert, 14) }
            guard sqlite3_step(upsert) == SQLITE_DONE else { throw HarnessError("emitter_cell upsert: \(db.message)") }
            sqlite3_reset(upsert)
        }
        cells.removeAll(keepingCapacity: true)
    }

    private static let empty: StaticString = ""

    /// SQLite copies what it is given (the Swift strings and arrays live only for the call).
    private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
