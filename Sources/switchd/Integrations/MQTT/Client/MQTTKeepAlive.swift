/// Keeps the connection alive and notices a broker that stopped answering: every `interval` on
/// `clock` it sends PINGREQ, and if nothing at all arrived from the broker during the interval
/// after the previous ping, it gives up on the connection.
///
/// Also bounds the wait for CONNACK: a connection not accepted one interval after it opened
/// is given up.
struct MQTTKeepAlive: Sendable {
    let session: MQTTSession
    let interval: Duration
    let clock: any Clock<Duration>

    /// Returns never; throws when the connection should be given up.
    ///
    /// - Throws: ``MQTTConnectionError/noPingResponse`` when the broker was silent for a whole
    ///   interval after a ping (or did not accept the connection within one); the clock's
    ///   `CancellationError` when cancelled.
    func run() async throws {
        var seen = await session.packetsReceived
        var pinged = false
        while true {
            try await clock.sleep(for: interval)
            let received = await session.packetsReceived
            if received == 0 || (pinged && received == seen) {
                throw MQTTConnectionError.noPingResponse
            }
            seen = received
            try await session.connection.send(.pingreq)
            pinged = true
        }
    }
}
