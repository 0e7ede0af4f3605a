enum SchemaTagEventsInPresence {
    /// A missing tag heard was stored twice, as a `tag_event` row and as a `presence_event` row
    /// with its `tag_id`; `presence_event` alone holds it now and `tag_event` goes. A tag event
    /// with no presence twin (written before `v4-tag-presence-events`) is copied over first, on
    /// its scanner's floor as placed now, so none is lost; the webhook deliveries its insert
    /// queues are removed again (old news, never announced before). The copies get new IDs,
    /// after every presence event's.
    static let mergeTagEvents = """
        CREATE TEMP TABLE tag_event_copy_after AS SELECT COALESCE(MAX(id), 0) AS id FROM presence_event;
        INSERT INTO presence_event (scanner_id, kind, time_ms, tag_id, floor_id)
        SELECT t.scanner_id, t.kind, t.time_ms, t.tag_id, (SELECT p.floor_id FROM scanner_placement p WHERE p.scanner_id = t.scanner_id)
        FROM tag_event t
        WHERE NOT EXISTS (
            SELECT 1 FROM presence_event e
            WHERE e.tag_id = t.tag_id AND e.kind = t.kind AND e.time_ms = t.time_ms AND e.scanner_id = t.scanner_id
        )
        ORDER BY t.id;
        DELETE FROM webhook_delivery WHERE event_id > (SELECT id FROM tag_event_copy_after);
        DROP TABLE tag_event_copy_after;
        DROP TABLE tag_event;
        """
}
