import Foundation
import GRDB
import ScanContract

/// A `tag` row, read as a ``Tag``. `metadata` is JSON text with sorted keys, as for beacons.
struct TagRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "tag"

    var id: Int64?
    var name: String
    var identity: String
    var txPower: Int
    var missing: Bool
    var missingHeard: Bool
    var height: Double
    var metadata: String

    enum CodingKeys: String, CodingKey {
        case id, name, identity, txPower = "tx_power", missing, missingHeard = "missing_heard", height, metadata
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let identity = Column(CodingKeys.identity)
    }

    /// - Throws: when the metadata cannot be encoded.
    init(_ tag: Tag, missingHeard: Bool = false) throws {
        id = tag.id == 0 ? nil : tag.id
        name = tag.name
        identity = tag.identity.key
        txPower = tag.txPower
        missing = tag.missing
        self.missingHeard = missingHeard
        height = tag.height
        metadata = String(decoding: try JSONCoding.encoder().encode(tag.metadata), as: UTF8.self)
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` when the identity or metadata is not what switchd writes.
    func tag() throws -> Tag {
        let id = id ?? 0
        guard let identity = try? TagIdentity(key: identity),
              let decoded = try? JSONDecoder().decode([String: String].self, from: Data(metadata.utf8)) else {
            throw StoreError.corruptRow("tag \(id) has an unreadable identity or metadata")
        }
        return Tag(id: id, name: name, identity: identity, txPower: txPower, missing: missing, height: height, metadata: decoded)
    }
}
