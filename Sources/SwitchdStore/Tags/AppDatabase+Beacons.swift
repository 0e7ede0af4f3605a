import Foundation
import ScanContract

extension AppDatabase {
    /// - Throws: ``StoreError/invalidField(_:)`` naming `floorID` for an unknown floor, or the
    ///   field ``NewBeacon/validate()`` names; ``StoreError/conflict(_:)`` when a beacon with
    ///   that UUID, major and minor is registered.
    package func createBeacon(_ new: NewBeacon) async throws -> Beacon {
        try validate(new.validate)
        let record = try BeaconRecord(id: nil, new)
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            try Self.checkBeaconFits(new, replacing: nil, in: sql)
            try Self.announceWatchedChange(in: sql)
            return try GeoFrames.load(sql).place(Beacon(id: try record.inserted(sql), new))
        }
    }

    /// Every beacon, or those of one floor, ordered by ID; with `lookup` only those whose
    /// identity matches it (the museum's "which item is this"); at most `limit` of those after `after`.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `floorID` names no floor;
    ///   ``StoreError/invalidField(_:)`` for `major` without `uuid` or `minor` without `major`.
    package func beacons(
        onFloor floorID: Int64?, matching lookup: TagLookup = TagLookup(), after: Int64 = 0, limit: Int = .max
    ) async throws -> [Beacon] {
        if lookup.uuid == nil, lookup.major != nil || lookup.minor != nil {
            throw StoreError.invalidField(ValidationError(field: "uuid", reason: "is needed with major or minor"))
        }
        if lookup.major == nil, lookup.minor != nil {
            throw StoreError.invalidField(ValidationError(field: "major", reason: "is needed with minor"))
        }
        return try await readStatements { sql in
            if let floorID, try !FloorRecord.exists(sql, id: floorID) { throw StoreError.notFound("no floor \(floorID)") }
            let frames = try GeoFrames.load(sql)
            let beacons = try BeaconRecord.fetchBeacons(sql, onFloor: floorID, matching: lookup, after: after, limit: limit).map(frames.place)
            return try Self.withTelemetry(beacons, in: sql)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown beacon.
    package func beacon(_ id: Int64) async throws -> Beacon {
        try await readStatements { sql in
            guard let beacon = try BeaconRecord.fetchBeacon(sql, id: id) else { throw StoreError.notFound("no beacon \(id)") }
            return try Self.withTelemetry([try GeoFrames.load(sql).place(beacon)], in: sql)[0]
        }
    }

    /// `beacons`, each with its latest telemetry (``Beacon/telemetry``) and health (``Beacon/health``).
    private static func withTelemetry(_ beacons: [Beacon], in sql: any StoreTransaction) throws -> [Beacon] {
        let telemetry = try Self.telemetry(of: beacons.map { .beacon($0.id) }, in: sql)
        var health: [Int64: BeaconHealthFlags] = [:]
        for beacon in beacons {
            guard let row = try sql.row("SELECT silent_last_heard_ms, faded FROM beacon_health WHERE beacon_id = ?", [.integer(beacon.id)]) else { continue }
            health[beacon.id] = BeaconHealthFlags(silent: try row.optionalInt64("silent_last_heard_ms") != nil, faded: try row.bool("faded"))
        }
        return beacons.map { beacon in
            var beacon = beacon
            beacon.telemetry = telemetry[.beacon(beacon.id)]
            beacon.health = health[beacon.id]
            return beacon
        }
    }

    /// Replaces everything about beacon `id` with `new`.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown beacon; otherwise as ``createBeacon(_:)``.
    package func replaceBeacon(_ id: Int64, with new: NewBeacon) async throws -> Beacon {
        try validate(new.validate)
        let record = try BeaconRecord(id: id, new)
        return try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard try BeaconRecord.fetchBeacon(sql, id: id) != nil else { throw StoreError.notFound("no beacon \(id)") }
            try Self.checkBeaconFits(new, replacing: id, in: sql)
            _ = try record.updated(sql)
            try Self.announceWatchedChange(in: sql)
            return try GeoFrames.load(sql).place(Beacon(id: id, new))
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown beacon.
    package func deleteBeacon(_ id: Int64) async throws {
        try await writeStatements { sql in
            try sql.lock(Self.surveyLock)
            guard try sql.execute("DELETE FROM beacon WHERE id = ?", [.integer(id)]) > 0 else { throw StoreError.notFound("no beacon \(id)") }
            try Self.announceWatchedChange(in: sql)
        }
    }

    /// The floor exists and no other beacon has the identity.
    private static func checkBeaconFits(_ new: NewBeacon, replacing id: Int64?, in sql: any StoreTransaction) throws {
        guard try FloorRecord.exists(sql, id: new.floorID) else {
            throw StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor \(new.floorID)"))
        }
        let holder = try BeaconRecord.holder(sql, uuid: new.uuid, major: Int(new.major), minor: Int(new.minor))
        if let holder, holder != id {
            throw StoreError.conflict("beacon \(holder) is already registered as \(BeaconID(uuid: new.uuid, major: new.major, minor: new.minor))")
        }
    }
}
