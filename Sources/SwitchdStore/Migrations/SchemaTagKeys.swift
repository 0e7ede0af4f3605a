/// The Identity Resolving Keys of `irk` tags (phones and watches), as frozen SQL (see ``SchemaV1``).
enum SchemaTagKeys {
    /// `tag_key`: per `irk` tag, its key sealed by switchd (AES-GCM under the key file in the
    /// state directory, docs/phones.md) as base64: the store never holds a key in the clear, and
    /// a tag's identity column holds only the key's fingerprint. Deleting the tag deletes its key.
    static let keys = """
        CREATE TABLE tag_key (
            tag_id INTEGER PRIMARY KEY NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            sealed TEXT NOT NULL
        );
        """
}
