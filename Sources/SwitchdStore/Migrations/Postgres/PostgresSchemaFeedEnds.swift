/// ``SchemaFeedEnds`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaFeedEnds {
    static let feedEnds = """
        CREATE TABLE feed_end (
            feed text PRIMARY KEY NOT NULL,
            sequence bigint NOT NULL
        );
        """
}
