import SwitchdStore

extension MQTTOutboxEntry {
    /// The largest remaining length an MQTT 3.1.1 packet can say (section 2.2.3).
    static let largestPacket = 268_435_455

    /// Why this stored message can never be published, or nil when it can: MQTT refuses an empty
    /// topic, one longer than 65,535 bytes, one holding a wildcard (`+`, `#`) or NUL, a QoS other
    /// than 0 or 1 here, and a packet over its largest length. A broker disconnects a client that
    /// sends such a PUBLISH, so one such row, sent again on every connection, would stop the
    /// outbox for good; it is dead-lettered instead (``AppDatabase/deadLetterMQTTOutbox(_:reason:at:)``).
    var unpublishableReason: String? {
        let topicBytes = topic.utf8.count
        if topicBytes == 0 { return "the topic is empty" }
        if topicBytes > Int(UInt16.max) { return "the topic is \(topicBytes) bytes, longer than MQTT's 65535" }
        // Bytes, not characters: "+" followed by a combining mark is one Character but still a "+" on the wire.
        if topic.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") }) {
            return "the topic holds a wildcard (+ or #), which a PUBLISH may not"
        }
        if topic.utf8.contains(0) { return "the topic holds a NUL character" }
        if qos != 0, qos != 1 { return "QoS \(qos) is not 0 or 1" }
        if payload.count > Self.largestPacket - topicBytes - 4 { return "the payload of \(payload.count) bytes does not fit one MQTT packet" }
        return nil
    }

    /// The message to publish; call only when ``unpublishableReason`` is nil.
    var message: MQTTMessage {
        MQTTMessage(topic: topic, payload: payload, qos: qos == 0 ? .atMostOnce : .atLeastOnce, retain: retain)
    }
}
