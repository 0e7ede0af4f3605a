import Foundation
import GRDB
import ScanContract

/// Readings added up per `emitter_cell` (see ``SchemaEmitterSummary``) before they reach it, so
/// that storing a batch costs one upsert per cell it touches instead of one per reading.
///
/// A cell's key spells the emitter as the table does (the Wi-Fi half, or the beacon half, the
/// other half 0 or an empty blob) and the place as mode, room and location (0 for none). Adding
/// readings and saving them leaves the cells exactly as inserting the same readings one by one
/// under the old insert trigger did, the SSID of the latest reading included (of readings at the
/// same time, the first added).
struct EmitterCellTally {
    private struct Key: Hashable {
        var kind: String
        var address: Int64
        var beaconUUID: UUID?
        var major: Int
        var minor: Int
        var mode: String
        var roomID: Int64
        var locationID: Int64

        static func precedes(_ a: Key, _ b: Key) -> Bool {
            (a.kind, a.address, a.beaconUUID?.uuidString ?? "", a.major, a.minor) < (b.kind, b.address, b.beaconUUID?.uuidString ?? "", b.major, b.minor)
                || (a.kind, a.address, a.beaconUUID?.uuidString ?? "", a.major, a.minor) == (b.kind, b.address, b.beaconUUID?.uuidString ?? "", b.major, b.minor)
                && (a.mode, a.roomID, a.locationID) < (b.mode, b.roomID, b.locationID)
        }
    }

    private struct Cell {
        var readings: Int
        var rssiSum: Int
        var maxRSSI: Int
        var firstMs: Int64
        var lastMs: Int64
        var lastSSID: String?

        /// Before its first reading: every reading added moves each figure.
        static let empty = Cell(readings: 0, rssiSum: 0, maxRSSI: .min, firstMs: .max, lastMs: .min, lastSSID: nil)

        mutating func add(_ reading: MeasurementRecord) {
            readings += 1
            rssiSum += reading.rssi
            maxRSSI = max(maxRSSI, reading.rssi)
            firstMs = min(firstMs, reading.timeMs)
            if reading.timeMs > lastMs {
                lastMs = reading.timeMs
                lastSSID = reading.ssid
            }
        }
    }

    private var cells: [Key: Cell] = [:]

    var isEmpty: Bool { cells.isEmpty }

    /// Adds one stored reading to its cell.
    mutating func add(_ reading: MeasurementRecord) {
        let wifi = reading.kind == RadioKind.wifi.rawValue
        let ble = reading.kind == RadioKind.ble.rawValue
        let key = Key(
            kind: reading.kind, address: wifi ? reading.address : 0, beaconUUID: ble ? reading.beaconUUID : nil,
            major: ble ? reading.major ?? 0 : 0, minor: ble ? reading.minor ?? 0 : 0,
            mode: reading.mode, roomID: reading.roomID ?? 0, locationID: reading.locationID ?? 0
        )
        // Changed in place: one hash of the key per reading, not a look-up and a store.
        cells[key, default: .empty].add(reading)
    }

    /// Adds `other`'s cells to this tally's, as if its readings were added after these.
    mutating func merge(_ other: EmitterCellTally) {
        for (key, cell) in other.cells {
            var merged = cells[key, default: .empty]
            merged.readings += cell.readings
            merged.rssiSum += cell.rssiSum
            merged.maxRSSI = max(merged.maxRSSI, cell.maxRSSI)
            merged.firstMs = min(merged.firstMs, cell.firstMs)
            if cell.lastMs > merged.lastMs {
                merged.lastMs = cell.lastMs
                merged.lastSSID = cell.lastSSID
            }
            cells[key] = merged
        }
    }

    /// Adds the tally to `emitter_cell`, one cached upsert per cell, in the caller's transaction.
    /// Throws what SQLite throws (a full disk, a broken constraint); the caller's transaction or
    /// savepoint then takes back whatever was saved.
    func save(_ db: Database) throws {
        let upsert = try db.cachedStatement(sql: Self.upsertSQL)
        for (key, cell) in cells {
            upsert.setUncheckedArguments([
                key.kind, key.address, key.beaconUUID?.databaseValue ?? Data().databaseValue, key.major, key.minor,
                key.mode, key.roomID, key.locationID,
                cell.readings, cell.rssiSum, cell.maxRSSI, cell.firstMs, cell.lastMs, cell.lastSSID,
            ])
            try upsert.execute()
        }
    }

    /// Each cell as the seam binds it, in the column order of ``upsertSQL``: the key (the cell's
    /// `beacon_uuid` the UUID's 16 bytes, or none), then the readings' sums. For the PostgreSQL
    /// driver, which upserts them in one statement.
    /// Sorted by key, so that concurrent transactions on PostgreSQL lock the cells they share in
    /// one order and wait for each other rather than deadlock.
    var storeRows: [[StoreValue]] {
        cells.sorted { Key.precedes($0.key, $1.key) }.map { key, cell in
            let beacon = key.beaconUUID.map { uuid in withUnsafeBytes(of: uuid.uuid) { [UInt8]($0) } } ?? []
            return [
                .text(key.kind), .integer(key.address), .bytes(beacon), StoreValue(key.major), StoreValue(key.minor),
                .text(key.mode), .integer(key.roomID), .integer(key.locationID),
                StoreValue(cell.readings), StoreValue(cell.rssiSum), StoreValue(cell.maxRSSI), .integer(cell.firstMs), .integer(cell.lastMs),
                StoreValue(cell.lastSSID),
            ]
        }
    }

    private static let upsertSQL = """
        INSERT INTO emitter_cell (
            kind, address, beacon_uuid, major, minor, mode, room_id, location_id,
            readings, rssi_sum, max_rssi, first_ms, last_ms, last_ssid
        ) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (kind, address, beacon_uuid, major, minor, mode, room_id, location_id) DO UPDATE SET
            readings = readings + excluded.readings,
            rssi_sum = rssi_sum + excluded.rssi_sum,
            max_rssi = MAX(max_rssi, excluded.max_rssi),
            first_ms = MIN(first_ms, excluded.first_ms),
            last_ssid = CASE WHEN excluded.last_ms > last_ms THEN excluded.last_ssid ELSE last_ssid END,
            last_ms = MAX(last_ms, excluded.last_ms)
        """
}
