import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// - Throws: ``StoreError/invalidField(_:)`` naming `floorID` for an unknown floor, or the
    ///   field ``NewBeacon/validate()`` names; ``StoreError/conflict(_:)`` when a beacon with
    ///   that UUID, major and minor is registered.
    package func createBeacon(_ new: NewBeacon) async throws -> Beacon {
        try validate(new.validate)
        let record = try BeaconRecord(id: nil, new)
        return try await write { db in
            try Self.checkBeaconFits(new, replacing: nil, in: db)
            var inserted = record
            try inserted.insert(db)
            return try GeoFrames.load(db).place(Beacon(id: db.lastInsertedRowID, new))
        }
    }

    /// Every beacon, or those of one floor, ordered by ID; with `lookup` only those whose
    /// identity matches it (the museum's "which item is this").
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `floorID` names no floor;
    ///   ``StoreError/invalidField(_:)`` for `major` without `uuid` or `minor` without `major`.
    package func beacons(onFloor floorID: Int64?, matching lookup: TagLookup = TagLookup()) async throws -> [Beacon] {
        if lookup.uuid == nil, lookup.major != nil || lookup.minor != nil {
            throw StoreError.invalidField(ValidationError(field: "uuid", reason: "is needed with major or minor"))
        }
        if lookup.major == nil, lookup.minor != nil {
            throw StoreError.invalidField(ValidationError(field: "major", reason: "is needed with minor"))
        }
        return try await read { db in
            if let floorID, try !FloorRecord.exists(db, key: floorID) { throw StoreError.notFound("no floor \(floorID)") }
            let frames = try GeoFrames.load(db)
            return try BeaconRecord.fetchBeacons(db, onFloor: floorID).filter { beacon in
                lookup.uuid.map { $0 == beacon.uuid } ?? true && lookup.major.map { $0 == beacon.major } ?? true
                    && lookup.minor.map { $0 == beacon.minor } ?? true
            }.map(frames.place)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown beacon.
    package func beacon(_ id: Int64) async throws -> Beacon {
        try await read { db in
            guard let record = try BeaconRecord.fetchOne(db, key: id) else { throw StoreError.notFound("no beacon \(id)") }
            return try GeoFrames.load(db).place(record.beacon())
        }
    }

    /// Replaces everything about beacon `id` with `new`.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown beacon; otherwise as ``createBeacon(_:)``.
    package func replaceBeacon(_ id: Int64, with new: NewBeacon) async throws -> Beacon {
        try validate(new.validate)
        let record = try BeaconRecord(id: id, new)
        return try await write { db in
            guard try BeaconRecord.exists(db, key: id) else { throw StoreError.notFound("no beacon \(id)") }
            try Self.checkBeaconFits(new, replacing: id, in: db)
            try record.update(db)
            return try GeoFrames.load(db).place(Beacon(id: id, new))
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown beacon.
    package func deleteBeacon(_ id: Int64) async throws {
        try await write { db in
            guard try BeaconRecord.deleteOne(db, key: id) else { throw StoreError.notFound("no beacon \(id)") }
        }
    }

    /// The floor exists and no other beacon has the identity.
    private static func checkBeaconFits(_ new: NewBeacon, replacing id: Int64?, in db: Database) throws {
        guard try FloorRecord.exists(db, key: new.floorID) else {
            throw StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor \(new.floorID)"))
        }
        let holder = try Int64.fetchOne(db, BeaconRecord.select(BeaconRecord.Columns.id).filter(
            BeaconRecord.Columns.uuid == new.uuid && BeaconRecord.Columns.major == Int(new.major) && BeaconRecord.Columns.minor == Int(new.minor)
        ))
        if let holder, holder != id {
            throw StoreError.conflict("beacon \(holder) is already registered as \(BeaconID(uuid: new.uuid, major: new.major, minor: new.minor))")
        }
    }
}
