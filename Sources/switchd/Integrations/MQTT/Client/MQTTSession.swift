/// The state of one connection after CONNACK: the packet identifiers in flight and the
/// acknowledgements the broker has sent for them. A lost connection fails every wait.
actor MQTTSession {
    let connection: MQTTConnection
    private var nextPacketID: UInt16 = 1
    private var waiting: [UInt16: CheckedContinuation<Void, any Error>] = [:]
    /// Acknowledgements that arrived before their sender started waiting.
    private var early: Set<UInt16> = []
    private var lost: (any Error)?
    private var accepted = false
    private var acceptance: CheckedContinuation<Void, any Error>?
    /// Packets received so far; the keep-alive watch compares it across a ping.
    private(set) var packetsReceived = 0

    init(connection: MQTTConnection) {
        self.connection = connection
    }

    /// Sends `message`; for QoS 1 returns the packet identifier to ``waitForAcknowledgement(_:)``.
    ///
    /// - Throws: when the connection is lost or the message cannot be encoded.
    func send(_ message: MQTTMessage) async throws -> UInt16? {
        if let lost { throw lost }
        let packetID = message.qos == .atLeastOnce ? allocatePacketID() : nil
        try await connection.send(.publish(MQTTPublish(message: message, packetID: packetID)))
        return packetID
    }

    /// Sends `message` and, for QoS 1, returns once the broker acknowledged it.
    ///
    /// - Throws: when the connection is lost before the acknowledgement.
    func publish(_ message: MQTTMessage) async throws {
        if let packetID = try await send(message) {
            try await waitForAcknowledgement(packetID)
        }
    }

    /// Subscribes to `filters` and returns the broker's return code for each.
    ///
    /// - Throws: when the connection is lost before SUBACK.
    func subscribe(_ filters: [(topic: String, qos: MQTTQoS)]) async throws {
        if let lost { throw lost }
        let packetID = allocatePacketID()
        try await connection.send(.subscribe(packetID: packetID, filters: filters))
        try await waitForAcknowledgement(packetID)
    }

    /// Returns once PUBACK or SUBACK for `packetID` has arrived.
    ///
    /// - Throws: the connection's error when it is lost first.
    func waitForAcknowledgement(_ packetID: UInt16) async throws {
        if early.remove(packetID) != nil { return }
        if let lost { throw lost }
        try await withCheckedThrowingContinuation { continuation in
            waiting[packetID] = continuation
        }
    }

    /// Returns once the broker accepted the connection (CONNACK with return code 0).
    ///
    /// - Throws: the connection's error when it is lost or refused first.
    func waitForConnack() async throws {
        if accepted { return }
        if let lost { throw lost }
        try await withCheckedThrowingContinuation { continuation in
            acceptance = continuation
        }
    }

    /// Takes one packet from the broker: acknowledgements end waits; everything else is counted.
    func received(_ packet: MQTTPacket) {
        packetsReceived += 1
        switch packet {
        case .connack(_, let returnCode):
            guard returnCode == 0 else { return lose(MQTTConnectionError.refused(returnCode: returnCode)) }
            accepted = true
            acceptance?.resume()
            acceptance = nil
        case .puback(let packetID), .suback(let packetID, _):
            if let continuation = waiting.removeValue(forKey: packetID) {
                continuation.resume()
            } else {
                early.insert(packetID)
            }
        default:
            break
        }
    }

    /// Fails every wait, now and later, with `error`.
    func lose(_ error: any Error) {
        lost = lost ?? error
        for continuation in waiting.values {
            continuation.resume(throwing: error)
        }
        waiting = [:]
        acceptance?.resume(throwing: error)
        acceptance = nil
    }

    /// 1…65535, skipping 0 (not a valid identifier) and any still in flight.
    private func allocatePacketID() -> UInt16 {
        repeat {
            nextPacketID = nextPacketID == UInt16.max ? 1 : nextPacketID + 1
        } while waiting[nextPacketID] != nil || early.contains(nextPacketID)
        return nextPacketID
    }
}

/// Why a connection to the broker ended or could not be made.
enum MQTTConnectionError: Error, CustomStringConvertible {
    /// CONNACK refused the connection; the codes are MQTT 3.1.1's (section 3.2.2.3).
    case refused(returnCode: UInt8)
    case closedByBroker
    case noPingResponse
    case unexpectedFirstPacket

    var description: String {
        switch self {
        case .refused(let code):
            let reason = switch code {
            case 1: "unacceptable protocol version"
            case 2: "client identifier rejected"
            case 3: "server unavailable"
            case 4: "bad user name or password"
            case 5: "not authorized"
            default: "return code \(code)"
            }
            return "the broker refused the connection: \(reason)"
        case .closedByBroker: return "the broker closed the connection"
        case .noPingResponse: return "the broker did not answer a ping within the keep-alive interval"
        case .unexpectedFirstPacket: return "the broker's first packet was not CONNACK"
        }
    }
}

extension MQTTSession {
    /// Runs `operation`; when it throws, the session is lost with its error (every wait fails)
    /// and the error is thrown on.
    nonisolated func failing(_ operation: @Sendable () async throws -> Void) async throws {
        do {
            try await operation()
        } catch {
            await lose(error)
            throw error
        }
    }
}
