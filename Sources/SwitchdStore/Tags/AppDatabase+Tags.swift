import Foundation
import ScanContract

/// Which tags `GET /v1/tags` lists: all, or those whose iBeacon identity matches the given
/// parts (`uuid`, then `major`, then `minor`), or the one with a device address.
package struct TagLookup: Sendable, Hashable {
    package var uuid: UUID?
    package var major: UInt16?
    package var minor: UInt16?
    package var address: MACAddress?

    package init(uuid: UUID? = nil, major: UInt16? = nil, minor: UInt16? = nil, address: MACAddress? = nil) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.address = address
    }

    /// The `LIKE` pattern over ``TagIdentity/key`` this lookup means; nil for every tag.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` for `major` without `uuid` or `minor` without `major`.
    func keyPattern() throws -> String? {
        if let address { return TagIdentity.address(address).key }
        guard let uuid else {
            if major != nil || minor != nil { throw StoreError.invalidField(ValidationError(field: "uuid", reason: "is needed with major or minor")) }
            return nil
        }
        var pattern = "ibeacon:\(uuid.uuidString.lowercased())/"
        guard let major else {
            if minor != nil { throw StoreError.invalidField(ValidationError(field: "major", reason: "is needed with minor")) }
            return pattern + "%"
        }
        pattern += "\(major)/"
        return minor.map { pattern + "\($0)" } ?? pattern + "%"
    }
}

extension AppDatabase {
    /// The lock every tag write takes, so that on PostgreSQL two instances' checks of an
    /// identity already registered run one after another (the unique identity is the backstop).
    static let tagsLock = "tags"

    /// `sealedKey`: an `irk` tag's key as switchd sealed it (``SchemaTagKeys``), stored with the tag.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming what ``NewTag/validate()`` refused;
    ///   ``StoreError/conflict(_:)`` when a tag has that identity, or `max` tags are registered.
    package func createTag(_ new: NewTag, max: Int = .max, sealedKey: String? = nil) async throws -> Tag {
        try validate(new.validate)
        let record = try TagRecord(Tag(id: 0, new))
        return try await writeStatements { sql in
            try sql.lock(Self.tagsLock)
            try Self.checkRoom(in: "tag", for: "tags", max: max, setting: "max-tags", sql)
            try Self.checkIdentityFree(new.identity, for: nil, in: sql)
            try Self.announceWatchedChange(in: sql)
            let tag = try record.inserted(sql).tag()
            try Self.storeKey(sealedKey, of: tag.id, replacing: false, in: sql)
            return tag
        }
    }

    /// Tags ordered by ID, those matching `lookup` only, at most `limit` of those after `after`.
    /// The pattern is matched against the lower-cased identity key (keys are written lower-case),
    /// so SQLite's case-insensitive `LIKE` and PostgreSQL's case-sensitive one find the same tags.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` for an incomplete lookup (see ``TagLookup``).
    package func tags(matching lookup: TagLookup = TagLookup(), after: Int64 = 0, limit: Int = .max) async throws -> [Tag] {
        let pattern = try lookup.keyPattern()?.lowercased()
        return try await readStatements { sql in
            let records = if let pattern {
                try TagRecord.fetchAll(sql, filter: "lower(identity) LIKE ? AND id > ?", values: [.text(pattern), .integer(after)], limit: limit)
            } else {
                try TagRecord.fetchAll(sql, filter: "id > ?", values: [.integer(after)], limit: limit)
            }
            return try Self.withTelemetry(try records.map { try $0.tag() }, in: sql)
        }
    }

    /// `tags`, each with its latest telemetry (``Tag/telemetry``).
    private static func withTelemetry(_ tags: [Tag], in sql: any StoreTransaction) throws -> [Tag] {
        let telemetry = try Self.telemetry(of: tags.map { .tag($0.id) }, in: sql)
        return tags.map { tag in
            var tag = tag
            tag.telemetry = telemetry[.tag(tag.id)]
            return tag
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func tag(_ id: Int64) async throws -> Tag {
        try await readStatements { sql in try Self.withTelemetry([try Self.tagRecord(id, in: sql).tag()], in: sql)[0] }
    }

    /// Applies `patch`; marking a tag missing (again) re-arms its missing-tag event.
    ///
    /// A new identity drops the tag's sealed key; `sealedKey` is the new one's, if it has one.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag; otherwise as ``createTag(_:)``.
    package func updateTag(_ id: Int64, with patch: TagPatch, sealedKey: String? = nil) async throws -> Tag {
        try validate(patch.validate)
        return try await writeStatements { sql in
            try sql.lock(Self.tagsLock)
            let record = try Self.tagRecord(id, in: sql)
            let updated = try record.tag().applying(patch)
            if let identity = patch.identity { try Self.checkIdentityFree(identity, for: id, in: sql) }
            let rearmed = patch.missing == true && !record.missing
            try TagRecord(updated, missingHeard: rearmed ? false : record.missingHeard).update(sql)
            if patch.identity != nil { try Self.storeKey(sealedKey, of: id, replacing: true, in: sql) }
            try Self.announceWatchedChange(in: sql)
            return updated
        }
    }

    /// Deletes the tag with its sightings, positions and events, keeping the tag position
    /// feed's end and the event feed's (``SequencedFeed/keepingEnd(in:_:)``).
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func deleteTag(_ id: Int64) async throws {
        try await writeStatements { sql in
            try sql.lock(Self.tagsLock)
            try Self.announceWatchedChange(in: sql)
            try SequencedFeed.tagPositions.keepingEnd(in: sql) {
                try SequencedFeed.presenceEvents.keepingEnd(in: sql) {
                    guard try sql.execute("DELETE FROM tag WHERE id = ?", [.integer(id)]) > 0 else { throw StoreError.notFound("no tag \(id)") }
                }
            }
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    static func tagRecord(_ id: Int64, in sql: any StoreTransaction) throws -> TagRecord {
        guard let record = try TagRecord.fetch(sql, id: id) else { throw StoreError.notFound("no tag \(id)") }
        return record
    }

    /// Stores `sealed` as tag `id`'s key, after dropping the one it had when `replacing`.
    private static func storeKey(_ sealed: String?, of id: Int64, replacing: Bool, in sql: any StoreTransaction) throws {
        if replacing { _ = try sql.execute("DELETE FROM tag_key WHERE tag_id = ?", [.integer(id)]) }
        if let sealed { _ = try sql.execute("INSERT INTO tag_key (tag_id, sealed) VALUES (?, ?)", [.integer(id), .text(sealed)]) }
    }

    private static func checkIdentityFree(_ identity: TagIdentity, for id: Int64?, in sql: any StoreTransaction) throws {
        if let holder = try TagRecord.fetch(sql, identity: identity)?.id, holder != id {
            throw StoreError.conflict("tag \(holder) is already registered as \(identity.key)")
        }
    }
}
