/// The tags switchd has published over MQTT, as frozen SQL (see ``SchemaV1``).
enum SchemaMQTTPublishedTags {
    /// The tags whose retained state (and Home Assistant discovery, when on) is on the broker,
    /// so a tag deleted while switchd ran without a broker, or while it was stopped, has them
    /// removed on the next connection. No foreign key: the row must outlive its tag until the
    /// removal is published.
    static let publishedTags = """
        CREATE TABLE mqtt_published_tag (
            tag_id INTEGER PRIMARY KEY NOT NULL
        );
        """
}
