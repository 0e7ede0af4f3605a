import Foundation
import Positioning
import ScanContract

extension AppDatabase {
    /// Starts recording the tag at a known spot: its next windows that placed scanners report
    /// become a reference point of the fingerprint map (``TagReferenceRecord``), as a beacon
    /// registered there would.
    ///
    /// - Throws: ``StoreError/invalidField(_:)`` naming a bad field; ``StoreError/notFound(_:)``
    ///   for an unknown tag or floor; ``StoreError/conflict(_:)`` while the tag's previous
    ///   recording is still running (one spot at a time: the tag cannot be in two).
    package func createTagReference(_ new: NewTagReference, for tagID: Int64, at time: Date) async throws -> TagReference {
        try validate(new.validate)
        return try await writeStatements { sql in
            try sql.lock(Self.tagsLock)
            let tag = try Self.tagRecord(tagID, in: sql)
            guard try FloorRecord.exists(sql, id: new.floorID) else { throw StoreError.notFound("no floor \(new.floorID)") }
            if let running = try TagReferenceRecord.recording(sql, tagID: tagID) {
                throw StoreError.conflict("tag \(tagID) is still being recorded at reference \(running.id ?? 0); wait for it or delete it")
            }
            let latest = try sql.row("SELECT MAX(window_end_ms) AS latest FROM sighting WHERE tag_id = ?", [.integer(tagID)])?
                .optionalInt64("latest") ?? 0
            return try TagReferenceRecord(new, of: tag, tagID: tagID, afterWindowEndMs: latest, at: time).inserted(sql).reference(sql)
        }
    }

    /// The tag's references, oldest first, with their progress.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag.
    package func tagReferences(of tagID: Int64) async throws -> [TagReference] {
        try await readStatements { sql in
            _ = try Self.tagRecord(tagID, in: sql)
            return try TagReferenceRecord.ofTag(sql, tagID).map { try $0.reference(sql) }
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag or reference.
    package func tagReference(_ id: Int64, of tagID: Int64) async throws -> TagReference {
        try await readStatements { sql in
            _ = try Self.tagRecord(tagID, in: sql)
            guard let record = try TagReferenceRecord.fetch(sql, id: id, tagID: tagID) else {
                throw StoreError.notFound("tag \(tagID) has no reference \(id)")
            }
            return try record.reference(sql)
        }
    }

    /// Deletes a reference (stopping it when it is still recording) and what it recorded.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown tag or reference.
    package func deleteTagReference(_ id: Int64, of tagID: Int64) async throws {
        try await writeStatements { sql in
            try sql.lock(Self.tagsLock)
            _ = try Self.tagRecord(tagID, in: sql)
            guard try TagReferenceRecord.delete(sql, id: id, tagID: tagID) else { throw StoreError.notFound("tag \(tagID) has no reference \(id)") }
        }
    }

    /// Copies a stored sighting of a tag being recorded into its reference when a placed
    /// scanner made it, finishing the recording once its windows are in.
    ///
    /// - Returns: whether the fingerprint map gained a window.
    static func recordReference(_ sighting: SightingRecord, tagID: Int64, in sql: any StoreTransaction) throws -> Bool {
        guard let reference = try TagReferenceRecord.taking(sql, tagID: tagID, windowEndMs: sighting.windowEndMs),
              try ScannerPlacementRecord.isPlaced(sql, sighting.scannerID),
              try reference.record(sighting, in: sql) else { return false }
        _ = try reference.finishIfComplete(in: sql)
        return true
    }
}
