/// Rooms drawn as shapes, as frozen SQL (see ``SchemaV1``).
enum SchemaRoomOutlines {
    /// `room_outline_point`: the corners of a room's outline, in plan metres on the room's floor,
    /// in order (`ordinal` from 0); a room has an outline when it has rows here, at least three
    /// (the store writes a whole outline in one transaction, checked as a simple polygon first).
    /// Deleting the room deletes its outline.
    static let outlines = """
        CREATE TABLE room_outline_point (
            room_id INTEGER NOT NULL REFERENCES room(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            x REAL NOT NULL,
            y REAL NOT NULL,
            PRIMARY KEY (room_id, ordinal)
        );
        """
}
