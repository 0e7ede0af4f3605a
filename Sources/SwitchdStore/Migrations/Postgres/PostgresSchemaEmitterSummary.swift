/// ``SchemaEmitterSummary`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaEmitterSummary {
    /// As ``SchemaEmitterSummary/emitterCells``. The cell's `beacon_uuid` stays `bytea`, the
    /// reading's UUID as its 16 bytes (`uuid_send`) and an empty value for no beacon, so a key
    /// means the same on both databases. The triggers run one function each, per reading; the
    /// SSID of a cell's latest reading is picked with `DISTINCT ON` where SQLite takes the bare
    /// column beside `MAX`.
    static let emitterCells = """
        CREATE TABLE emitter_cell (
            kind text COLLATE "C" NOT NULL CHECK (kind IN ('wifi', 'ble')),
            address bigint NOT NULL,
            beacon_uuid bytea NOT NULL,
            major bigint NOT NULL,
            minor bigint NOT NULL,
            mode text COLLATE "C" NOT NULL,
            room_id bigint NOT NULL,
            location_id bigint NOT NULL,
            readings bigint NOT NULL CHECK (readings > 0),
            rssi_sum bigint NOT NULL,
            max_rssi bigint NOT NULL,
            first_ms bigint NOT NULL,
            last_ms bigint NOT NULL,
            last_ssid text COLLATE "C",
            PRIMARY KEY (kind, address, beacon_uuid, major, minor, mode, room_id, location_id)
        );
        CREATE FUNCTION emitter_cell_add() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            \(addNew)
            RETURN NULL;
        END $$;
        CREATE FUNCTION emitter_cell_remove() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            \(removeOld)
            RETURN NULL;
        END $$;
        CREATE FUNCTION emitter_cell_move() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            \(removeOld)
            \(addNew)
            RETURN NULL;
        END $$;
        CREATE TRIGGER emitter_cell_add AFTER INSERT ON measurement FOR EACH ROW EXECUTE FUNCTION emitter_cell_add();
        CREATE TRIGGER emitter_cell_remove AFTER DELETE ON measurement FOR EACH ROW EXECUTE FUNCTION emitter_cell_remove();
        CREATE TRIGGER emitter_cell_move AFTER UPDATE ON measurement FOR EACH ROW EXECUTE FUNCTION emitter_cell_move();
        INSERT INTO emitter_cell (
            kind, address, beacon_uuid, major, minor, mode, room_id, location_id,
            readings, rssi_sum, max_rssi, first_ms, last_ms, last_ssid
        )
        SELECT
            kind,
            CASE kind WHEN 'wifi' THEN address ELSE 0 END,
            CASE kind WHEN 'ble' THEN COALESCE(uuid_send(beacon_uuid), ''::bytea) ELSE ''::bytea END,
            CASE kind WHEN 'ble' THEN COALESCE(major, 0) ELSE 0 END,
            CASE kind WHEN 'ble' THEN COALESCE(minor, 0) ELSE 0 END,
            mode, COALESCE(room_id, 0), COALESCE(location_id, 0),
            COUNT(*), SUM(rssi), MAX(rssi), MIN(time_ms), MAX(time_ms), NULL
        FROM measurement
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
        UPDATE emitter_cell SET last_ssid = latest.ssid
        FROM (
            SELECT DISTINCT ON (address, mode, COALESCE(room_id, 0), COALESCE(location_id, 0))
                address, mode, COALESCE(room_id, 0) AS room_id, COALESCE(location_id, 0) AS location_id, ssid
            FROM measurement WHERE kind = 'wifi'
            ORDER BY address, mode, COALESCE(room_id, 0), COALESCE(location_id, 0), time_ms DESC
        ) AS latest
        WHERE emitter_cell.kind = 'wifi' AND emitter_cell.address = latest.address AND emitter_cell.mode = latest.mode
            AND emitter_cell.room_id = latest.room_id AND emitter_cell.location_id = latest.location_id;
        """

    /// The insert trigger's statement: `NEW` added to its cell. Part of the frozen migration
    /// above; never edited.
    private static let addNew = """
        INSERT INTO emitter_cell (
                kind, address, beacon_uuid, major, minor, mode, room_id, location_id,
                readings, rssi_sum, max_rssi, first_ms, last_ms, last_ssid
            ) VALUES (
                NEW.kind,
                CASE NEW.kind WHEN 'wifi' THEN NEW.address ELSE 0 END,
                CASE NEW.kind WHEN 'ble' THEN COALESCE(uuid_send(NEW.beacon_uuid), ''::bytea) ELSE ''::bytea END,
                CASE NEW.kind WHEN 'ble' THEN COALESCE(NEW.major, 0) ELSE 0 END,
                CASE NEW.kind WHEN 'ble' THEN COALESCE(NEW.minor, 0) ELSE 0 END,
                NEW.mode, COALESCE(NEW.room_id, 0), COALESCE(NEW.location_id, 0),
                1, NEW.rssi, NEW.rssi, NEW.time_ms, NEW.time_ms, NEW.ssid
            )
            ON CONFLICT (kind, address, beacon_uuid, major, minor, mode, room_id, location_id) DO UPDATE SET
                readings = emitter_cell.readings + 1,
                rssi_sum = emitter_cell.rssi_sum + excluded.rssi_sum,
                max_rssi = GREATEST(emitter_cell.max_rssi, excluded.max_rssi),
                first_ms = LEAST(emitter_cell.first_ms, excluded.first_ms),
                last_ssid = CASE WHEN excluded.last_ms > emitter_cell.last_ms THEN excluded.last_ssid ELSE emitter_cell.last_ssid END,
                last_ms = GREATEST(emitter_cell.last_ms, excluded.last_ms);
        """

    /// The delete trigger's statements: `OLD` taken out of its cell, the cell gone with its last
    /// reading. Part of the frozen migration above; never edited.
    private static let removeOld = """
        DELETE FROM emitter_cell
            WHERE kind = OLD.kind
                AND address = CASE OLD.kind WHEN 'wifi' THEN OLD.address ELSE 0 END
                AND beacon_uuid = CASE OLD.kind WHEN 'ble' THEN COALESCE(uuid_send(OLD.beacon_uuid), ''::bytea) ELSE ''::bytea END
                AND major = CASE OLD.kind WHEN 'ble' THEN COALESCE(OLD.major, 0) ELSE 0 END
                AND minor = CASE OLD.kind WHEN 'ble' THEN COALESCE(OLD.minor, 0) ELSE 0 END
                AND mode = OLD.mode AND room_id = COALESCE(OLD.room_id, 0) AND location_id = COALESCE(OLD.location_id, 0)
                AND readings = 1;
            UPDATE emitter_cell SET readings = readings - 1, rssi_sum = rssi_sum - OLD.rssi
            WHERE kind = OLD.kind
                AND address = CASE OLD.kind WHEN 'wifi' THEN OLD.address ELSE 0 END
                AND beacon_uuid = CASE OLD.kind WHEN 'ble' THEN COALESCE(uuid_send(OLD.beacon_uuid), ''::bytea) ELSE ''::bytea END
                AND major = CASE OLD.kind WHEN 'ble' THEN COALESCE(OLD.major, 0) ELSE 0 END
                AND minor = CASE OLD.kind WHEN 'ble' THEN COALESCE(OLD.minor, 0) ELSE 0 END
                AND mode = OLD.mode AND room_id = COALESCE(OLD.room_id, 0) AND location_id = COALESCE(OLD.location_id, 0);
        """
}
