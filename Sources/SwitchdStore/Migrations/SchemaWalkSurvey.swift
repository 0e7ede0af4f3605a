/// Walk surveys, as frozen SQL (see ``SchemaV1``; docs/survey-quality.md, "Walk survey").
enum SchemaWalkSurvey {
    /// `walk`: one row per walk survey: the scanner and the switch revision it surveys under, the
    /// end locations (NULL once deleted) and the segment as they were at the start, the room and
    /// floor the walk points go in, when it started and arrived. A scanner walks one walk at a
    /// time (the partial unique index); a revision belongs to at most one walk. `scanner_id` is
    /// plain text, like `batch.scanner_id`: a finished walk's points and readings are survey
    /// material and outlive a deleted scanner (its walk under way goes with it, see
    /// ``AppDatabase/deleteWalkUnderWay(of:in:)``).
    ///
    /// `location.walk_id` and `location.walk_scan`: a walk point is a location made for one scan
    /// cycle of a walk; deleting the walk deletes its points (and, by their cascade, their
    /// readings).
    static let walks = """
        CREATE TABLE walk (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            scanner_id TEXT NOT NULL,
            revision INTEGER NOT NULL,
            from_location_id INTEGER REFERENCES location(id) ON DELETE SET NULL,
            to_location_id INTEGER REFERENCES location(id) ON DELETE SET NULL,
            room_id INTEGER NOT NULL REFERENCES room(id) ON DELETE CASCADE,
            start_x REAL NOT NULL,
            start_y REAL NOT NULL,
            end_x REAL NOT NULL,
            end_y REAL NOT NULL,
            started_ms INTEGER NOT NULL,
            arrived_ms INTEGER,
            state TEXT NOT NULL CHECK (state IN ('walking', 'done')),
            dropped_cycles INTEGER NOT NULL DEFAULT 0,
            CHECK ((state = 'done') = (arrived_ms IS NOT NULL)),
            CHECK (arrived_ms IS NULL OR arrived_ms > started_ms)
        );
        CREATE UNIQUE INDEX walk_revision ON walk(scanner_id, revision);
        CREATE UNIQUE INDEX walk_walking ON walk(scanner_id) WHERE state = 'walking';
        CREATE INDEX walk_from_location ON walk(from_location_id);
        CREATE INDEX walk_to_location ON walk(to_location_id);
        CREATE INDEX walk_room ON walk(room_id);
        ALTER TABLE location ADD COLUMN walk_id INTEGER REFERENCES walk(id) ON DELETE CASCADE;
        ALTER TABLE location ADD COLUMN walk_scan INTEGER;
        CREATE INDEX location_walk ON location(walk_id);
        """
}
