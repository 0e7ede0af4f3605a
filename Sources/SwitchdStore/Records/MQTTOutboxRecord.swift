import Foundation

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

/// An `mqtt_outbox` row, written and read through ``StoreTransaction``.
struct MQTTOutboxRecord {
    static let columns = "id, topic, payload, qos, retain, created_ms"

    var id: Int64?
    var topic: String
    var payload: [UInt8]
    var qos: Int
    var retain: Bool
    var createdMs: Int64

    init(_ entry: MQTTOutboxEntry, at now: Date) {
        id = nil
        topic = entry.topic
        payload = entry.payload
        qos = entry.qos
        retain = entry.retain
        createdMs = now.milliseconds
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.int64("id")
        topic = try row.string("topic")
        payload = try row.bytes("payload")
        qos = try row.int("qos")
        retain = try row.bool("retain")
        createdMs = try row.int64("created_ms")
    }

    /// Stores the message; returns it with the ID the database gave it.
    func inserted(_ sql: any StoreTransaction) throws -> MQTTOutboxRecord {
        let row = try sql.insertedRow(
            "INSERT INTO mqtt_outbox (topic, payload, qos, retain, created_ms) VALUES (?, ?, ?, ?, ?) RETURNING \(Self.columns)",
            [.text(topic), .bytes(payload), .integer(Int64(qos)), .boolean(retain), .integer(createdMs)], storing: "an MQTT message"
        )
        return try MQTTOutboxRecord(row: row)
    }

    var entry: MQTTOutboxEntry {
        MQTTOutboxEntry(id: id, topic: topic, payload: payload, qos: qos, retain: retain)
    }
}
