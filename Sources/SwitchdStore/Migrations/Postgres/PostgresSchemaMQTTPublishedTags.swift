/// ``SchemaMQTTPublishedTags`` on PostgreSQL.
enum PostgresSchemaMQTTPublishedTags {
    static let publishedTags = """
        CREATE TABLE mqtt_published_tag (
            tag_id bigint PRIMARY KEY NOT NULL
        );
        """
}
