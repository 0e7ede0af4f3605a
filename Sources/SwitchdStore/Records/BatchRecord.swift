import Foundation
import GRDB

/// A `batch` row: an uploaded batch, remembered (never deleted) so a replay is recognised.
struct BatchRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "batch"

    var id: Int64?
    var uuid: UUID
    var scannerID: String
    var revision: Int
    var receivedMs: Int64
    /// How many of its readings were stored; set after they are (a trigger counts survey readings).
    var stored: Int
    /// Whether its revision said not to keep readings.
    var discarded: Bool

    enum CodingKeys: String, CodingKey {
        case id, uuid, scannerID = "scanner_id", revision, receivedMs = "received_ms", stored, discarded
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let uuid = Column(CodingKeys.uuid)
        static let stored = Column(CodingKeys.stored)
        static let discarded = Column(CodingKeys.discarded)
    }

    /// Whether the batch with this ID was discarded; nil when no such batch is stored.
    static func discarded(_ db: Database, batchID: UUID) throws -> Bool? {
        try Bool.fetchOne(db, BatchRecord.select(Columns.discarded).filter(Columns.uuid == batchID))
    }

    static func setStored(_ db: Database, id: Int64, count: Int) throws {
        try BatchRecord.filter(key: id).updateAll(db, Columns.stored.set(to: count))
    }
}
