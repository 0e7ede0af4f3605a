/// ``SchemaEmitterSummaryByBatch`` in PostgreSQL's dialect (see ``PostgresSchemaV1``).
enum PostgresSchemaEmitterSummaryByBatch {
    /// As ``SchemaEmitterSummaryByBatch/dropInsertTrigger``; the trigger's function of
    /// ``PostgresSchemaEmitterSummary`` goes with it (the update trigger's function carries its
    /// own copy of the insert).
    static let dropInsertTrigger = """
        DROP TRIGGER emitter_cell_add ON measurement;
        DROP FUNCTION emitter_cell_add();
        """
}
