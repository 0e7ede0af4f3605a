/// ``SchemaTagKeys`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaTagKeys {
    static let keys = """
        CREATE TABLE tag_key (
            tag_id bigint PRIMARY KEY NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            sealed text COLLATE "C" NOT NULL
        );
        """
}
