/// The emitter summary kept by ingest once per batch, as frozen SQL (see ``SchemaV1``).
enum SchemaEmitterSummaryByBatch {
    /// The insert trigger of ``SchemaEmitterSummary`` goes: it ran one upsert per reading inside
    /// every ingest commit. Ingest, the only code that inserts readings, now adds a batch's stored
    /// readings to their cells itself, one upsert per cell (``EmitterCellTally``), in the same
    /// transaction. The delete and update triggers stay: moving a location, the cascades of a
    /// deleted location or room, clearing a room and retention still keep the cells exact.
    static let dropInsertTrigger = """
        DROP TRIGGER emitter_cell_add;
        """
}
