/// Checks free-form metadata (of a beacon or a tag) against ``NewBeacon``'s limits: entries, key
/// and value lengths. Nil (none given) passes.
///
/// - Throws: ``ValidationError`` naming `metadata`, or `metadata.<key>` for a value too long.
func validateMetadata(_ metadata: [String: String]?) throws(ValidationError) {
    guard let metadata else { return }
    guard metadata.count <= NewBeacon.maxMetadataEntries else {
        throw ValidationError(field: "metadata", reason: "must have at most \(NewBeacon.maxMetadataEntries) entries, got \(metadata.count)")
    }
    for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
        guard !key.isEmpty, key.count <= NewBeacon.maxMetadataKeyLength else {
            throw ValidationError(field: "metadata", reason: "keys must be 1 to \(NewBeacon.maxMetadataKeyLength) characters, got \(key.count)")
        }
        guard value.count <= NewBeacon.maxMetadataValueLength else {
            throw ValidationError(field: "metadata.\(key)", reason: "must be at most \(NewBeacon.maxMetadataValueLength) characters, got \(value.count)")
        }
    }
}
