/// ``SchemaFeedMarks`` in PostgreSQL's dialect (see ``PostgresSchemaV1``), with the first mark:
/// what is stored when the migration commits, under the migration's own transaction horizon, so a
/// database that ingested under the former feed lock keeps its feed's end.
enum PostgresSchemaFeedMarks {
    static let marks = """
        CREATE TABLE feed_mark (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            next_xid bigint NOT NULL,
            measurement_sequence bigint NOT NULL,
            batch_id bigint NOT NULL
        );
        INSERT INTO feed_mark (next_xid, measurement_sequence, batch_id) SELECT
            pg_snapshot_xmax(pg_current_snapshot())::text::bigint,
            GREATEST(
                COALESCE((SELECT MAX(sequence) FROM measurement), 0),
                COALESCE((SELECT sequence FROM feed_end WHERE feed = 'measurement'), 0)
            ),
            COALESCE((SELECT MAX(id) FROM batch), 0);
        """
}
