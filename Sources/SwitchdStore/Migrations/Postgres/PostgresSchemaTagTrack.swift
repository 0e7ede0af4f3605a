/// ``SchemaTagTrack`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaTagTrack {
    static let tracks = """
        CREATE TABLE tag_track (
            tag_id bigint PRIMARY KEY NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            state text COLLATE "C" NOT NULL
        );
        """
}
