/// ``SchemaRoomOutlines`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaRoomOutlines {
    static let outlines = """
        CREATE TABLE room_outline_point (
            room_id bigint NOT NULL REFERENCES room(id) ON DELETE CASCADE,
            ordinal bigint NOT NULL,
            x double precision NOT NULL,
            y double precision NOT NULL,
            PRIMARY KEY (room_id, ordinal)
        );
        """
}
