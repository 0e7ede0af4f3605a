import Foundation
import ScanContract

/// A `beacon` row, read as a ``Beacon``. `metadata` is kept as JSON text with sorted keys, so
/// equal metadata is stored as equal text.
struct BeaconRecord {
    var id: Int64?
    var uuid: UUID
    var major: Int
    var minor: Int
    var floorID: Int64
    var x: Double
    var y: Double
    var z: Double
    var measuredPower: Int
    var metadata: String

    enum CodingKeys: String, CodingKey {
        case id, uuid, major, minor, floorID = "floor_id", x, y, z, measuredPower = "measured_power", metadata
    }

    /// - Throws: when the metadata cannot be encoded.
    init(id: Int64?, _ new: NewBeacon) throws {
        self.id = id
        uuid = new.uuid
        major = Int(new.major)
        minor = Int(new.minor)
        floorID = new.floorID
        x = new.x
        y = new.y
        z = new.z ?? 0
        measuredPower = new.measuredPower
        metadata = String(decoding: try JSONCoding.encoder().encode(new.metadata ?? [:]), as: UTF8.self)
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` when the stored identity or metadata is not what
    ///   switchd writes.
    func beacon() throws -> Beacon {
        let id = id ?? 0
        guard let major16 = UInt16(exactly: major), let minor16 = UInt16(exactly: minor),
              let decoded = try? JSONDecoder().decode([String: String].self, from: Data(metadata.utf8)) else {
            throw StoreError.corruptRow("beacon \(id) has an unreadable identity or metadata")
        }
        return Beacon(
            id: id, uuid: uuid, major: major16, minor: minor16, floorID: floorID,
            x: x, y: y, z: z, measuredPower: measuredPower, metadata: decoded
        )
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        uuid = try row.uuid("uuid")
        major = try row.int("major")
        minor = try row.int("minor")
        floorID = try row.int64("floor_id")
        x = try row.double("x")
        y = try row.double("y")
        z = try row.double("z")
        measuredPower = try row.int("measured_power")
        metadata = try row.string("metadata")
    }

    static let columns = "id, uuid, major, minor, floor_id, x, y, z, measured_power, metadata"

    /// Beacons ordered by ID, on either database; only `floorID`'s when given, and only those of
    /// `lookup`'s identity parts; at most `limit` of those after `after`.
    static func fetchBeacons(
        _ sql: any StoreTransaction, onFloor floorID: Int64? = nil, matching lookup: TagLookup = TagLookup(), after: Int64 = 0, limit: Int = .max
    ) throws -> [Beacon] {
        var conditions = ["id > ?"]
        var values: [StoreValue] = [.integer(after)]
        for (column, value) in [
            ("floor_id", floorID.map(StoreValue.integer)), ("uuid", lookup.uuid.map(StoreValue.uuid)),
            ("major", lookup.major.map { .integer(Int64($0)) }), ("minor", lookup.minor.map { .integer(Int64($0)) }),
        ] {
            guard let value else { continue }
            conditions.append("\(column) = ?")
            values.append(value)
        }
        let rows = try sql.rows(
            "SELECT \(columns) FROM beacon WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT ?", values + [.integer(Int64(limit))]
        )
        return try rows.map { try BeaconRecord(row: $0).beacon() }
    }

    /// The beacon, or nil.
    static func fetchBeacon(_ sql: any StoreTransaction, id: Int64) throws -> Beacon? {
        try sql.row("SELECT \(columns) FROM beacon WHERE id = ?", [.integer(id)]).map { try BeaconRecord(row: $0).beacon() }
    }

    /// The ID of the beacon registered with this identity, if any.
    static func holder(_ sql: any StoreTransaction, uuid: UUID, major: Int, minor: Int) throws -> Int64? {
        try sql.row(
            "SELECT id FROM beacon WHERE uuid = ? AND major = ? AND minor = ?", [.uuid(uuid), .integer(Int64(major)), .integer(Int64(minor))]
        )?.int64("id")
    }

    /// Stores a new beacon and returns its ID.
    func inserted(_ sql: any StoreTransaction) throws -> Int64 {
        guard let row = try sql.row(
            "INSERT INTO beacon (uuid, major, minor, floor_id, x, y, z, measured_power, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            [.uuid(uuid)] + fieldValues
        ) else { throw StoreError.corruptRow("inserting a beacon returned no row") }
        return try row.int64("id")
    }

    /// Writes every field of beacon ``id`` but the ID; whether it was there.
    func updated(_ sql: any StoreTransaction) throws -> Bool {
        try sql.execute(
            "UPDATE beacon SET uuid = ?, major = ?, minor = ?, floor_id = ?, x = ?, y = ?, z = ?, measured_power = ?, metadata = ? WHERE id = ?",
            [.uuid(uuid)] + fieldValues + [StoreValue(id)]
        ) > 0
    }

    private var fieldValues: [StoreValue] {
        [.integer(Int64(major)), .integer(Int64(minor)), .integer(floorID), .real(x), .real(y), .real(z), .integer(Int64(measuredPower)), .text(metadata)]
    }
}
