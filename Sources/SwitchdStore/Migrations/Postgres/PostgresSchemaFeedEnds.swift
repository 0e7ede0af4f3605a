/// ``SchemaFeedEnds`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaFeedEnds {
    static let feedEnds = """
        CREATE TABLE feed_end (
            feed text COLLATE "C" PRIMARY KEY NOT NULL,
            sequence bigint NOT NULL
        );
        """
}
