import NIOCore

/// The MQTT 3.1.1 control packets switchd sends or reads, one case per packet type named as the
/// specification (OASIS MQTT Version 3.1.1, section 3) names it. QoS 2 is never asked for, so its
/// packets (PUBREC, PUBREL, PUBCOMP) are not here: the broker does not send them to a client that
/// subscribes and publishes at QoS 0 and 1.
enum MQTTPacket: Sendable, Equatable {
    case connect(MQTTConnect)
    /// CONNACK: whether the broker kept a session, and its return code (0 accepted).
    case connack(sessionPresent: Bool, returnCode: UInt8)
    case publish(MQTTPublish)
    /// PUBACK: the broker (or switchd) has a QoS 1 message with this packet identifier.
    case puback(packetID: UInt16)
    case subscribe(packetID: UInt16, filters: [(topic: String, qos: MQTTQoS)])
    /// SUBACK: one return code per filter, in order (0x80 refused).
    case suback(packetID: UInt16, returnCodes: [UInt8])
    case pingreq
    case pingresp
    case disconnect

    static func == (lhs: MQTTPacket, rhs: MQTTPacket) -> Bool {
        switch (lhs, rhs) {
        case (.connect(let a), .connect(let b)): a == b
        case (.connack(let a1, let a2), .connack(let b1, let b2)): a1 == b1 && a2 == b2
        case (.publish(let a), .publish(let b)): a == b
        case (.puback(let a), .puback(let b)): a == b
        case (.subscribe(let a, let af), .subscribe(let b, let bf)):
            a == b && af.map(\.topic) == bf.map(\.topic) && af.map(\.qos) == bf.map(\.qos)
        case (.suback(let a, let ac), .suback(let b, let bc)): a == b && ac == bc
        case (.pingreq, .pingreq), (.pingresp, .pingresp), (.disconnect, .disconnect): true
        default: false
        }
    }
}

/// Quality of service of one message: at most once (0) or at least once (1).
enum MQTTQoS: UInt8, Sendable, Codable {
    case atMostOnce = 0
    case atLeastOnce = 1
}

/// CONNECT's fields (section 3.1).
struct MQTTConnect: Sendable, Equatable {
    var clientID: String
    /// Seconds; the broker drops a client silent for one and a half times this.
    var keepAlive: UInt16
    var cleanSession = true
    var username: String?
    var password: String?
    /// The message the broker publishes for switchd when the connection is lost without DISCONNECT.
    var will: MQTTMessage?
}

/// PUBLISH's fields (section 3.3); `packetID` is set exactly for QoS 1.
struct MQTTPublish: Sendable, Equatable {
    var message: MQTTMessage
    var packetID: UInt16?
    var duplicate = false
}

/// One application message: where it goes, what it says, and how it is delivered.
struct MQTTMessage: Sendable, Equatable {
    var topic: String
    var payload: [UInt8]
    var qos: MQTTQoS
    var retain: Bool

    init(topic: String, payload: [UInt8], qos: MQTTQoS, retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    init(topic: String, text: String, qos: MQTTQoS, retain: Bool) {
        self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
    }
}
