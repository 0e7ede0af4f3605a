/// The emitter summary behind `GET /v1/emitters`, as frozen SQL (see ``SchemaV1``).
enum SchemaEmitterSummary {
    /// One `emitter_cell` row per emitter (an access point by BSSID, a beacon by UUID, major and
    /// minor; the unused half of the key is 0 or an empty blob) and per place its readings were
    /// stored under (mode, room, location; 0 for none): how many readings, their RSSI sum and
    /// maximum, the first and last reading time and the SSID of the last. An emitter's listing
    /// adds up its cells, so answering costs the same whatever the number of readings.
    ///
    /// Triggers keep the cells in the transaction that stores, changes or deletes a reading,
    /// whichever way it goes (ingest, a location moved to another room, a location's or room's
    /// cascade, clearing a room, retention). A deleted reading takes its count and RSSI back; a
    /// cell goes when its last reading does; a changed reading is taken out of its old cell and
    /// added to its new one. Deleting every reading of a cell is therefore exact; a cell only partly deleted (retention
    /// deletes old locate readings) keeps the time span, maximum and SSID of everything it held.
    /// The cells of readings already stored are filled once, here.
    static let emitterCells = """
        CREATE TABLE emitter_cell (
            kind TEXT NOT NULL CHECK (kind IN ('wifi', 'ble')),
            address INTEGER NOT NULL,
            beacon_uuid BLOB NOT NULL,
            major INTEGER NOT NULL,
            minor INTEGER NOT NULL,
            mode TEXT NOT NULL,
            room_id INTEGER NOT NULL,
            location_id INTEGER NOT NULL,
            readings INTEGER NOT NULL CHECK (readings > 0),
            rssi_sum INTEGER NOT NULL,
            max_rssi INTEGER NOT NULL,
            first_ms INTEGER NOT NULL,
            last_ms INTEGER NOT NULL,
            last_ssid TEXT,
            PRIMARY KEY (kind, address, beacon_uuid, major, minor, mode, room_id, location_id)
        ) WITHOUT ROWID;
        CREATE TRIGGER emitter_cell_add AFTER INSERT ON measurement BEGIN
            \(addNew)
        END;
        CREATE TRIGGER emitter_cell_remove AFTER DELETE ON measurement BEGIN
            \(removeOld)
        END;
        CREATE TRIGGER emitter_cell_move AFTER UPDATE ON measurement BEGIN
            \(removeOld)
            \(addNew)
        END;
        INSERT INTO emitter_cell (
            kind, address, beacon_uuid, major, minor, mode, room_id, location_id,
            readings, rssi_sum, max_rssi, first_ms, last_ms, last_ssid
        )
        SELECT
            kind,
            CASE kind WHEN 'wifi' THEN address ELSE 0 END,
            CASE kind WHEN 'ble' THEN IFNULL(beacon_uuid, x'') ELSE x'' END,
            CASE kind WHEN 'ble' THEN IFNULL(major, 0) ELSE 0 END,
            CASE kind WHEN 'ble' THEN IFNULL(minor, 0) ELSE 0 END,
            mode, IFNULL(room_id, 0), IFNULL(location_id, 0),
            COUNT(*), SUM(rssi), MAX(rssi), MIN(time_ms), MAX(time_ms), NULL
        FROM measurement
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
        UPDATE emitter_cell SET last_ssid = latest.ssid
        FROM (
            SELECT address, mode, IFNULL(room_id, 0) AS room_id, IFNULL(location_id, 0) AS location_id, ssid, MAX(time_ms)
            FROM measurement WHERE kind = 'wifi' GROUP BY address, mode, 3, 4
        ) AS latest
        WHERE emitter_cell.kind = 'wifi' AND emitter_cell.address = latest.address AND emitter_cell.mode = latest.mode
            AND emitter_cell.room_id = latest.room_id AND emitter_cell.location_id = latest.location_id;
        """

    /// The body of the insert trigger: `NEW` added to its cell. Part of the frozen migration
    /// above; never edited.
    private static let addNew = """
        INSERT INTO emitter_cell (
            kind, address, beacon_uuid, major, minor, mode, room_id, location_id,
            readings, rssi_sum, max_rssi, first_ms, last_ms, last_ssid
        ) VALUES (
            NEW.kind,
            CASE NEW.kind WHEN 'wifi' THEN NEW.address ELSE 0 END,
            CASE NEW.kind WHEN 'ble' THEN IFNULL(NEW.beacon_uuid, x'') ELSE x'' END,
            CASE NEW.kind WHEN 'ble' THEN IFNULL(NEW.major, 0) ELSE 0 END,
            CASE NEW.kind WHEN 'ble' THEN IFNULL(NEW.minor, 0) ELSE 0 END,
            NEW.mode, IFNULL(NEW.room_id, 0), IFNULL(NEW.location_id, 0),
            1, NEW.rssi, NEW.rssi, NEW.time_ms, NEW.time_ms, NEW.ssid
        )
        ON CONFLICT (kind, address, beacon_uuid, major, minor, mode, room_id, location_id) DO UPDATE SET
            readings = readings + 1,
            rssi_sum = rssi_sum + excluded.rssi_sum,
            max_rssi = MAX(max_rssi, excluded.max_rssi),
            first_ms = MIN(first_ms, excluded.first_ms),
            last_ssid = CASE WHEN excluded.last_ms > last_ms THEN excluded.last_ssid ELSE last_ssid END,
            last_ms = MAX(last_ms, excluded.last_ms);
        """

    /// The body of the delete trigger: `OLD` taken out of its cell, the cell gone with its last
    /// reading. Part of the frozen migration above; never edited.
    private static let removeOld = """
        DELETE FROM emitter_cell
        WHERE kind = OLD.kind
            AND address = CASE OLD.kind WHEN 'wifi' THEN OLD.address ELSE 0 END
            AND beacon_uuid = CASE OLD.kind WHEN 'ble' THEN IFNULL(OLD.beacon_uuid, x'') ELSE x'' END
            AND major = CASE OLD.kind WHEN 'ble' THEN IFNULL(OLD.major, 0) ELSE 0 END
            AND minor = CASE OLD.kind WHEN 'ble' THEN IFNULL(OLD.minor, 0) ELSE 0 END
            AND mode = OLD.mode AND room_id = IFNULL(OLD.room_id, 0) AND location_id = IFNULL(OLD.location_id, 0)
            AND readings = 1;
        UPDATE emitter_cell SET readings = readings - 1, rssi_sum = rssi_sum - OLD.rssi
        WHERE kind = OLD.kind
            AND address = CASE OLD.kind WHEN 'wifi' THEN OLD.address ELSE 0 END
            AND beacon_uuid = CASE OLD.kind WHEN 'ble' THEN IFNULL(OLD.beacon_uuid, x'') ELSE x'' END
            AND major = CASE OLD.kind WHEN 'ble' THEN IFNULL(OLD.major, 0) ELSE 0 END
            AND minor = CASE OLD.kind WHEN 'ble' THEN IFNULL(OLD.minor, 0) ELSE 0 END
            AND mode = OLD.mode AND room_id = IFNULL(OLD.room_id, 0) AND location_id = IFNULL(OLD.location_id, 0);
        """
}
