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

    // Ingest asks both once per batch: literal SQL through the connection's statement cache,
    // rather than a query built, compiled and authorized anew for every batch.

    /// Whether the batch with this ID was discarded; nil when no such batch is stored.
    static func discarded(_ db: Database, batchID: UUID) throws -> Bool? {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT discarded FROM batch WHERE uuid = ?"), arguments: [batchID])
    }

    static func setStored(_ db: Database, id: Int64, count: Int) throws {
        try db.cachedStatement(sql: "UPDATE batch SET stored = ? WHERE id = ?").execute(arguments: [count, id])
    }
}
