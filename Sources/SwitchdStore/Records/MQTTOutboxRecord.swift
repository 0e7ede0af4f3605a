import Foundation
import GRDB

/// One message waiting in the MQTT outbox.
package struct MQTTOutboxEntry: Sendable, Equatable {
    /// Nil until stored; the order messages leave in.
    package var id: Int64?
    package var topic: String
    package var payload: [UInt8]
    /// 0 (at most once) or 1 (at least once).
    package var qos: Int
    package var retain: Bool

    package init(id: Int64? = nil, topic: String, payload: [UInt8], qos: Int, retain: Bool) {
        self.id = id
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}

/// An `mqtt_outbox` row.
struct MQTTOutboxRecord: Codable, FetchableRecord, RowIDRecord {
    static let databaseTableName = "mqtt_outbox"

    var id: Int64?
    var topic: String
    var payload: Data
    var qos: Int
    var retain: Bool
    var createdMs: Int64

    enum CodingKeys: String, CodingKey {
        case id, topic, payload, qos, retain, createdMs = "created_ms"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
    }

    init(_ entry: MQTTOutboxEntry, at now: Date) {
        id = nil
        topic = entry.topic
        payload = Data(entry.payload)
        qos = entry.qos
        retain = entry.retain
        createdMs = now.milliseconds
    }

    var entry: MQTTOutboxEntry {
        MQTTOutboxEntry(id: id, topic: topic, payload: Array(payload), qos: qos, retain: retain)
    }
}
