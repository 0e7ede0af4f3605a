import Harness

/// What switchd adds to `emitter_cell` for one batch on PostgreSQL, for the like-for-like raw
/// baseline: the batch's readings (lines of `COPY` text) added up into cells as switchd's tally
/// keys them, then one multi-row upsert with the same `ON CONFLICT` clause as switchd's
/// (`EmitterCellTally.save` on PostgreSQL), the values written as literals.
struct EmitterCellUpsert {
    private struct Key: Hashable {
        var kind: String
        var address: String
        var beacon: String
        var major: String
        var minor: String
        var mode: String
        var roomID: String
        var locationID: String
    }

    private struct Cell {
        var readings = 0
        var rssiSum: Int64 = 0
        var maxRSSI = Int64.min
        var firstMs = Int64.max
        var lastMs = Int64.min
        var lastSSID = "NULL"
    }

    private let column: [String: Int]

    init(columns: [String]) throws {
        column = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
        for name in ["kind", "address", "beacon_uuid", "major", "minor", "mode", "room_id", "location_id", "rssi", "time_ms", "ssid"] where column[name] == nil {
            throw HarnessError("the measurement table has no column \(name)")
        }
    }

    /// The upsert of `lines`' cells.
    func statement(for lines: ArraySlice<String>) throws -> String {
        var cells: [Key: Cell] = [:]
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == column.count else { throw HarnessError("a copied row has \(fields.count) fields, not \(column.count)") }
            func value(_ name: String) -> Substring { fields[column[name]!] }
            func orZero(_ name: String) -> String { value(name) == "\\N" ? "0" : String(value(name)) }
            let wifi = value("kind") == "wifi"
            let beacon = value("beacon_uuid")
            let key = Key(
                kind: String(value("kind")), address: wifi ? String(value("address")) : "0",
                beacon: wifi || beacon == "\\N" ? "''::bytea" : "uuid_send('\(beacon)'::uuid)",
                major: wifi ? "0" : orZero("major"), minor: wifi ? "0" : orZero("minor"),
                mode: String(value("mode")), roomID: orZero("room_id"), locationID: orZero("location_id")
            )
            guard let rssi = Int64(value("rssi")), let time = Int64(value("time_ms")) else {
                throw HarnessError("a copied row's rssi or time is not a number: \(line.prefix(200))")
            }
            var cell = cells[key] ?? Cell()
            cell.readings += 1
            cell.rssiSum += rssi
            cell.maxRSSI = max(cell.maxRSSI, rssi)
            cell.firstMs = min(cell.firstMs, time)
            if time > cell.lastMs {
                cell.lastMs = time
                // COPY's text escapes are E'' string escapes; only the quote needs doubling.
                let ssid = value("ssid")
                cell.lastSSID = ssid == "\\N" ? "NULL" : "E'\(ssid.replacingOccurrences(of: "'", with: "''"))'"
            }
            cells[key] = cell
        }
        let values = cells.map { key, cell in
            "('\(key.kind)', \(key.address), \(key.beacon), \(key.major), \(key.minor), '\(key.mode)', \(key.roomID), \(key.locationID), "
                + "\(cell.readings), \(cell.rssiSum), \(cell.maxRSSI), \(cell.firstMs), \(cell.lastMs), \(cell.lastSSID))"
        }
        return """
            INSERT INTO emitter_cell (
                kind, address, beacon_uuid, major, minor, mode, room_id, location_id,
                readings, rssi_sum, max_rssi, first_ms, last_ms, last_ssid
            ) VALUES \(values.joined(separator: ", "))
            ON CONFLICT (kind, address, beacon_uuid, major, minor, mode, room_id, location_id) DO UPDATE SET
                readings = emitter_cell.readings + excluded.readings,
                rssi_sum = emitter_cell.rssi_sum + excluded.rssi_sum,
                max_rssi = GREATEST(emitter_cell.max_rssi, excluded.max_rssi),
                first_ms = LEAST(emitter_cell.first_ms, excluded.first_ms),
                last_ssid = CASE WHEN excluded.last_ms > emitter_cell.last_ms THEN excluded.last_ssid ELSE emitter_cell.last_ssid END,
                last_ms = GREATEST(emitter_cell.last_ms, excluded.last_ms)
            """
    }
}
