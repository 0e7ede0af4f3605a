import Foundation
import GRDB
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
    /// - Throws: ``StoreError/invalidField(_:)`` naming what ``NewTag/validate()`` refused;
    ///   ``StoreError/conflict(_:)`` when a tag has that identity.
    package func createTag(_ new: NewTag) async throws -> Tag {
        try validate(new.validate)
        let record = try TagRecord(Tag(id: 0, new))
        return try await write { db in
            try Self.checkIdentityFree(new.identity, for: nil, in: db)
            var inserted = record
            try inserted.insert(db)
            return try inserted.tag()
        }
    }

    /// Tags ordered by ID, those matching `lookup` only.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` for an incomplete lookup (see ``TagLookup``).
    package func tags(matching lookup: TagLookup = TagLookup()) async throws -> [Tag] {
        let pattern = try lookup.keyPattern()
        return try await read { db in
            var request = TagRecord.order(TagRecord.Columns.id)
            if let pattern { request = request.filter(TagRecord.Columns.identity.like(pattern)) }
            return try request.fetchAll(db).map { try $0.tag() }
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func tag(_ id: Int64) async throws -> Tag {
        try await read { db in try Self.tagRecord(id, in: db).tag() }
    }

    /// Applies `patch`; marking a tag missing (again) re-arms its missing-tag event.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag; otherwise as ``createTag(_:)``.
    package func updateTag(_ id: Int64, with patch: TagPatch) async throws -> Tag {
        try validate(patch.validate)
        return try await write { db in
            let record = try Self.tagRecord(id, in: db)
            let updated = try record.tag().applying(patch)
            if let identity = patch.identity { try Self.checkIdentityFree(identity, for: id, in: db) }
            let rearmed = patch.missing == true && !record.missing
            try TagRecord(updated, missingHeard: rearmed ? false : record.missingHeard).update(db)
            return updated
        }
    }

    /// Deletes the tag with its sightings, positions and events.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func deleteTag(_ id: Int64) async throws {
        try await write { db in
            guard try TagRecord.deleteOne(db, key: id) else { throw StoreError.notFound("no tag \(id)") }
        }
    }

    static func tagRecord(_ id: Int64, in db: Database) throws -> TagRecord {
        guard let record = try TagRecord.fetchOne(db, key: id) else { throw StoreError.notFound("no tag \(id)") }
        return record
    }

    private static func checkIdentityFree(_ identity: TagIdentity, for id: Int64?, in db: Database) throws {
        let holder = try Int64.fetchOne(db, TagRecord.select(TagRecord.Columns.id).filter(TagRecord.Columns.identity == identity.key))
        if let holder, holder != id {
            throw StoreError.conflict("tag \(holder) is already registered as \(identity.key)")
        }
    }
}
