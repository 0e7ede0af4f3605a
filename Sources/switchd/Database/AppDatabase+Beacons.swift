import Foundation
import GRDB
import ScanContract

extension AppDatabase {
    /// - Throws: ``StoreError/invalidField(_:)`` naming `floorID` for an unknown floor, or the
    ///   field ``NewBeacon/validate()`` names; ``StoreError/conflict(_:)`` when a beacon with
    ///   that UUID, major and minor is registered.
    func createBeacon(_ new: NewBeacon) async throws -> Beacon {
        try validate(new.validate)
        let metadata = try Self.metadataText(new.metadata ?? [:])
        return try await writer.write { db in
            try Self.checkBeaconFits(new, replacing: nil, in: db)
            try db.execute(sql: """
                INSERT INTO beacon (uuid, major, minor, floor_id, x, y, z, measured_power, metadata)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: Self.beaconArguments(new, metadata: metadata))
            return Beacon(id: db.lastInsertedRowID, new)
        }
    }

    /// Every beacon, or those of one floor, ordered by ID.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` when `floorID` names no floor.
    func beacons(onFloor floorID: Int64?) async throws -> [Beacon] {
        try await writer.read { db in
            guard let floorID else { return try Self.allBeacons(in: db) }
            guard try Self.floorExists(floorID, in: db) else { throw StoreError.notFound("no floor \(floorID)") }
            return try Row.fetchAll(db, sql: "\(Self.beaconSelect) WHERE floor_id = ? ORDER BY id", arguments: [floorID]).map(Self.beacon(from:))
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown beacon.
    func beacon(_ id: Int64) async throws -> Beacon {
        try await writer.read { db in
            guard let row = try Row.fetchOne(db, sql: "\(Self.beaconSelect) WHERE id = ?", arguments: [id]) else {
                throw StoreError.notFound("no beacon \(id)")
            }
            return try Self.beacon(from: row)
        }
    }

    /// Replaces everything about beacon `id` with `new`.
    ///
    /// - Throws: ``StoreError/notFound(_:)`` for an unknown beacon; otherwise as ``createBeacon(_:)``.
    func replaceBeacon(_ id: Int64, with new: NewBeacon) async throws -> Beacon {
        try validate(new.validate)
        let metadata = try Self.metadataText(new.metadata ?? [:])
        return try await writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM beacon WHERE id = ?)", arguments: [id]) == true else {
                throw StoreError.notFound("no beacon \(id)")
            }
            try Self.checkBeaconFits(new, replacing: id, in: db)
            try db.execute(sql: """
                UPDATE beacon SET uuid = ?, major = ?, minor = ?, floor_id = ?, x = ?, y = ?, z = ?, measured_power = ?, metadata = ?
                WHERE id = ?
                """, arguments: Self.beaconArguments(new, metadata: metadata) + [id])
            return Beacon(id: id, new)
        }
    }

    /// - Throws: ``StoreError/notFound(_:)`` for an unknown beacon.
    func deleteBeacon(_ id: Int64) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM beacon WHERE id = ?", arguments: [id])
            guard db.changesCount == 1 else { throw StoreError.notFound("no beacon \(id)") }
        }
    }

    static func allBeacons(in db: Database) throws -> [Beacon] {
        try Row.fetchAll(db, sql: "\(beaconSelect) ORDER BY id").map(beacon(from:))
    }

    /// The floor exists and no other beacon has the identity.
    private static func checkBeaconFits(_ new: NewBeacon, replacing id: Int64?, in db: Database) throws {
        guard try floorExists(new.floorID, in: db) else {
            throw StoreError.invalidField(ValidationError(field: "floorID", reason: "no floor \(new.floorID)"))
        }
        if let holder = try Int64.fetchOne(
            db, sql: "SELECT id FROM beacon WHERE uuid = ? AND major = ? AND minor = ?",
            arguments: [new.uuid, Int(new.major), Int(new.minor)]
        ), holder != id {
            throw StoreError.conflict("beacon \(holder) is already registered as \(BeaconID(uuid: new.uuid, major: new.major, minor: new.minor))")
        }
    }

    private static func beaconArguments(_ new: NewBeacon, metadata: String) -> StatementArguments {
        [new.uuid, Int(new.major), Int(new.minor), new.floorID, new.x, new.y, new.z ?? 0, new.measuredPower, metadata]
    }

    private static let beaconSelect = "SELECT id, uuid, major, minor, floor_id, x, y, z, measured_power, metadata FROM beacon"

    /// - Throws: ``StoreError/corruptRow(_:)`` when the stored identity or metadata is not what
    ///   switchd writes.
    private static func beacon(from row: Row) throws -> Beacon {
        let id: Int64 = row[0]
        let metadataText: String = row[9]
        guard let uuid: UUID = row[1], let major = UInt16(exactly: row[2] as Int), let minor = UInt16(exactly: row[3] as Int),
              let metadata = try? JSONDecoder().decode([String: String].self, from: Data(metadataText.utf8)) else {
            throw StoreError.corruptRow("beacon \(id) has an unreadable identity or metadata")
        }
        return Beacon(
            id: id, uuid: uuid, major: major, minor: minor, floorID: row[4],
            x: row[5], y: row[6], z: row[7], measuredPower: row[8], metadata: metadata
        )
    }

    /// Sorted keys, so equal metadata is stored as equal text.
    private static func metadataText(_ metadata: [String: String]) throws -> String {
        String(decoding: try JSONCoding.encoder().encode(metadata), as: UTF8.self)
    }
}
