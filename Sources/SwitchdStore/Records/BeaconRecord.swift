import Foundation
import GRDB
import ScanContract

/// A `beacon` row, read as a ``Beacon``. `metadata` is kept as JSON text with sorted keys, so
/// equal metadata is stored as equal text.
struct BeaconRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "beacon"

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

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let uuid = Column(CodingKeys.uuid)
        static let major = Column(CodingKeys.major)
        static let minor = Column(CodingKeys.minor)
        static let floorID = Column(CodingKeys.floorID)
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

    /// Beacons ordered by ID; only `floorID`'s when given.
    static func fetchBeacons(_ db: Database, onFloor floorID: Int64? = nil) throws -> [Beacon] {
        var request = BeaconRecord.order(Columns.id)
        if let floorID {
            request = request.filter(Columns.floorID == floorID)
        }
        return try request.fetchAll(db).map { try $0.beacon() }
    }
}
