/// ``SchemaWalkSurvey`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaWalkSurvey {
    /// As ``SchemaWalkSurvey/walks``: `walk.id` is an identity, never given out twice, like
    /// SQLite's AUTOINCREMENT.
    static let walks = """
        CREATE TABLE walk (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            scanner_id text COLLATE "C" NOT NULL,
            revision bigint NOT NULL,
            from_location_id bigint REFERENCES location(id) ON DELETE SET NULL,
            to_location_id bigint REFERENCES location(id) ON DELETE SET NULL,
            room_id bigint NOT NULL REFERENCES room(id) ON DELETE CASCADE,
            start_x double precision NOT NULL,
            start_y double precision NOT NULL,
            end_x double precision NOT NULL,
            end_y double precision NOT NULL,
            started_ms bigint NOT NULL,
            arrived_ms bigint,
            state text COLLATE "C" NOT NULL CHECK (state IN ('walking', 'done')),
            dropped_cycles bigint NOT NULL DEFAULT 0,
            CHECK ((state = 'done') = (arrived_ms IS NOT NULL)),
            CHECK (arrived_ms IS NULL OR arrived_ms > started_ms)
        );
        CREATE UNIQUE INDEX walk_revision ON walk(scanner_id, revision);
        CREATE UNIQUE INDEX walk_walking ON walk(scanner_id) WHERE state = 'walking';
        CREATE INDEX walk_from_location ON walk(from_location_id);
        CREATE INDEX walk_to_location ON walk(to_location_id);
        CREATE INDEX walk_room ON walk(room_id);
        ALTER TABLE location ADD COLUMN walk_id bigint REFERENCES walk(id) ON DELETE CASCADE;
        ALTER TABLE location ADD COLUMN walk_scan bigint;
        CREATE INDEX location_walk ON location(walk_id);
        """
}
