/// ``SchemaV2`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaV2 {
    static let beacons = """
        CREATE TABLE beacon (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            uuid uuid NOT NULL,
            major bigint NOT NULL CHECK (major BETWEEN 0 AND 65535),
            minor bigint NOT NULL CHECK (minor BETWEEN 0 AND 65535),
            floor_id bigint NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            x double precision NOT NULL,
            y double precision NOT NULL,
            z double precision NOT NULL,
            measured_power bigint NOT NULL,
            metadata text COLLATE "C" NOT NULL
        );
        CREATE UNIQUE INDEX beacon_identity ON beacon(uuid, major, minor);
        CREATE INDEX beacon_floor ON beacon(floor_id);
        """

    /// One link per pair whichever way it was given: SQLite's two-argument `min`/`max` are
    /// PostgreSQL's `LEAST`/`GREATEST`.
    static let links = """
        CREATE TABLE link (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            from_id bigint NOT NULL REFERENCES location(id) ON DELETE CASCADE,
            to_id bigint NOT NULL REFERENCES location(id) ON DELETE CASCADE,
            kind text COLLATE "C" NOT NULL CHECK (kind IN ('walk', 'stairs', 'lift')),
            distance_metres double precision NOT NULL CHECK (distance_metres > 0),
            CHECK (from_id <> to_id)
        );
        CREATE UNIQUE INDEX link_pair ON link(LEAST(from_id, to_id), GREATEST(from_id, to_id));
        CREATE INDEX link_to ON link(to_id);
        """

    static let positions = """
        CREATE TABLE position (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            scanner_id text COLLATE "C" NOT NULL REFERENCES scanner(id) ON DELETE CASCADE,
            time_ms bigint NOT NULL,
            building text COLLATE "C" NOT NULL,
            floor_id bigint NOT NULL REFERENCES floor(id) ON DELETE CASCADE,
            x double precision NOT NULL,
            y double precision NOT NULL,
            room_id bigint REFERENCES room(id) ON DELETE SET NULL,
            nearest_location_id bigint REFERENCES location(id) ON DELETE SET NULL,
            accuracy_metres double precision NOT NULL CHECK (accuracy_metres >= 0),
            method text COLLATE "C" NOT NULL,
            beacons text COLLATE "C"
        );
        CREATE INDEX position_scanner_time ON position(scanner_id, time_ms);
        CREATE INDEX position_floor ON position(floor_id);
        CREATE INDEX position_room ON position(room_id);
        CREATE INDEX position_location ON position(nearest_location_id);
        """

    /// The survey version and the triggers that bump it, as in ``SchemaV2/surveyVersion``: one
    /// PL/pgSQL function, called by a trigger per change SQLite's triggers watch. SQLite's
    /// `IS NOT` is `IS DISTINCT FROM`; the condition on a batch's readings (a subquery, which a
    /// PostgreSQL trigger's WHEN cannot hold) is in its own function. The token is a random UUID's
    /// text, the shape SQLite's `randomblob` expression makes.
    static let surveyVersion = """
        CREATE TABLE survey_version (
            id bigint PRIMARY KEY CHECK (id = 1),
            token text COLLATE "C" NOT NULL,
            version bigint NOT NULL
        );
        INSERT INTO survey_version (id, token, version) VALUES (1, gen_random_uuid()::text, 1);
        CREATE FUNCTION survey_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE survey_version SET version = version + 1 WHERE id = 1;
            RETURN NULL;
        END $$;
        CREATE FUNCTION survey_version_bump_for_readings() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (
                SELECT 1 FROM switch_revision
                WHERE scanner_id = NEW.scanner_id AND revision = NEW.revision AND mode = 'survey'
            ) THEN
                UPDATE survey_version SET version = version + 1 WHERE id = 1;
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER survey_version_floor_updated AFTER UPDATE OF building, level ON floor FOR EACH ROW
        WHEN (OLD.building IS DISTINCT FROM NEW.building OR OLD.level IS DISTINCT FROM NEW.level)
        EXECUTE FUNCTION survey_version_bump();
        CREATE TRIGGER survey_version_floor_inserted AFTER INSERT ON floor FOR EACH ROW EXECUTE FUNCTION survey_version_bump();
        CREATE TRIGGER survey_version_floor_deleted AFTER DELETE ON floor FOR EACH ROW EXECUTE FUNCTION survey_version_bump();
        CREATE TRIGGER survey_version_room_updated AFTER UPDATE OF floor_id ON room FOR EACH ROW
        WHEN (OLD.floor_id IS DISTINCT FROM NEW.floor_id)
        EXECUTE FUNCTION survey_version_bump();
        CREATE TRIGGER survey_version_location_updated AFTER UPDATE OF room_id, x, y ON location FOR EACH ROW
        WHEN (OLD.room_id IS DISTINCT FROM NEW.room_id OR OLD.x IS DISTINCT FROM NEW.x OR OLD.y IS DISTINCT FROM NEW.y)
        EXECUTE FUNCTION survey_version_bump();
        CREATE TRIGGER survey_version_location_inserted AFTER INSERT ON location FOR EACH ROW EXECUTE FUNCTION survey_version_bump();
        CREATE TRIGGER survey_version_location_deleted AFTER DELETE ON location FOR EACH ROW EXECUTE FUNCTION survey_version_bump();
        CREATE TRIGGER survey_version_beacon_updated
        AFTER UPDATE OF uuid, major, minor, floor_id, x, y, z, measured_power, metadata ON beacon FOR EACH ROW
        WHEN (
            OLD.uuid IS DISTINCT FROM NEW.uuid OR OLD.major IS DISTINCT FROM NEW.major OR OLD.minor IS DISTINCT FROM NEW.minor
            OR OLD.floor_id IS DISTINCT FROM NEW.floor_id OR OLD.x IS DISTINCT FROM NEW.x OR OLD.y IS DISTINCT FROM NEW.y
            OR OLD.z IS DISTINCT FROM NEW.z OR OLD.measured_power IS DISTINCT FROM NEW.measured_power
            OR OLD.metadata IS DISTINCT FROM NEW.metadata
        )
        EXECUTE FUNCTION survey_version_bump();
        CREATE TRIGGER survey_version_beacon_inserted AFTER INSERT ON beacon FOR EACH ROW EXECUTE FUNCTION survey_version_bump();
        CREATE TRIGGER survey_version_beacon_deleted AFTER DELETE ON beacon FOR EACH ROW EXECUTE FUNCTION survey_version_bump();
        CREATE TRIGGER survey_version_readings_stored AFTER UPDATE OF stored ON batch FOR EACH ROW
        WHEN (NEW.stored > OLD.stored)
        EXECUTE FUNCTION survey_version_bump_for_readings();
        CREATE TRIGGER survey_version_reading_deleted AFTER DELETE ON measurement FOR EACH ROW
        WHEN (OLD.mode = 'survey' AND OLD.location_id IS NOT NULL)
        EXECUTE FUNCTION survey_version_bump();
        """
}
