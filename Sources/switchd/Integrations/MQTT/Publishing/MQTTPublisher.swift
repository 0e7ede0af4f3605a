import Foundation
import Logging
import NIOSSL
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Publishes switchd's state to an MQTT broker for as long as switchd runs: connects, publishes
/// everything retained, follows the database, and after a lost connection waits (doubling, on
/// `clock`) and starts again, publishing everything retained again. Nothing else in switchd
/// waits for it: the HTTP API and ingest only raise watermarks it reads.
///
/// A failure is logged and counted in ``MQTTStatus``; only graceful shutdown ends the service,
/// after publishing `offline` on the status topic and disconnecting.
struct MQTTPublisher: Service {
    let settings: MQTTSettings
    /// From `--mqtt-ca-file` for an `mqtts://` broker; nil for plain MQTT.
    let tls: NIOSSLContext?
    let database: AppDatabase
    let hub: SwitchHub
    let feeds: Feeds
    let status: MQTTStatus
    /// Nil unless `--mqtt-commands`.
    let commands: MQTTSwitchCommands?
    let logger: Logger
    var clock: any Clock<Duration> = ContinuousClock()
    /// Reads the wall clock, for scanners' last contact (a stored wall-clock time).
    var now: @Sendable () -> Date = Date.init

    func run() async throws {
        var backoff = ReconnectBackoff(minimum: settings.minReconnectDelay, maximum: settings.maxReconnectDelay)
        // Once per run (a start, or a takeover in a cluster), not per connection: the nonces
        // remembered across a reconnect still stand.
        commands?.startListening()
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            let connectionsBefore = await status.report().connections
            var failure: (any Error)?
            do {
                try await publishUntilDisconnected()
            } catch {
                failure = error
            }
            await status.disconnected(failure, at: now())
            if await status.report().connections > connectionsBefore { backoff.reset() }
            guard !Task.isCancelled, !Task.isShuttingDownGracefully else { return }
            let delay = backoff.delay()
            logger.warning("MQTT broker connection lost; trying again", metadata: [
                "broker": "\(settings.broker)", "error": "\(failure.map { "\($0)" } ?? "closed")", "retryIn": "\(delay)",
            ])
            do {
                try await cancelWhenGracefulShutdown { [clock] in try await clock.sleep(for: delay) }
            } catch {
                return
            }
        }
    }

    /// One connection, from CONNECT to its end. Returns after a graceful shutdown's DISCONNECT.
    ///
    /// - Throws: when the broker cannot be reached, refuses switchd, stops answering or closes.
    private func publishUntilDisconnected() async throws {
        let connection = try await MQTTConnection.open(to: settings.broker, tls: tls, connectTimeout: settings.connectTimeout)
        let session = MQTTSession(connection: connection)
        let (inbox, inboxContinuation) = AsyncStream.makeStream(of: MQTTMessage.self)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Whichever fails first fails the session, so no task waits on an answer that
                // cannot come.
                group.addTask { try await session.failing { try await Self.read(connection, into: session, inbox: inboxContinuation) } }
                group.addTask { [clock, settings] in
                    try await session.failing { try await MQTTKeepAlive(session: session, interval: settings.keepAlive, clock: clock).run() }
                }
                group.addTask { try await session.failing { try await publish(over: session, inbox: inbox) } }
                // The first to end ends the connection: the publisher after a graceful DISCONNECT,
                // the reader when the broker closes, the keep-alive when it is silent.
                try await group.next()
                group.cancelAll()
            }
        } catch {
            await session.lose(error)
            await connection.close()
            throw error
        }
        await session.lose(MQTTConnectionError.closedByBroker)
        await connection.close()
    }

    /// Hands every packet to `session`; acknowledges and forwards what the broker delivers.
    private static func read(
        _ connection: MQTTConnection, into session: MQTTSession, inbox: AsyncStream<MQTTMessage>.Continuation
    ) async throws {
        defer { inbox.finish() }
        for try await packet in connection.inbound {
            await session.received(packet)
            switch packet {
            case .connack(_, let returnCode) where returnCode != 0:
                throw MQTTConnectionError.refused(returnCode: returnCode)
            case .publish(let publish):
                // Acknowledged on receipt: a command is applied at most once.
                if let packetID = publish.packetID { try await connection.send(.puback(packetID: packetID)) }
                inbox.yield(publish.message)
            default:
                break
            }
        }
        throw MQTTConnectionError.closedByBroker
    }

    /// CONNECT, then the state, then changes as they are stored, until graceful shutdown.
    private func publish(over session: MQTTSession, inbox: AsyncStream<MQTTMessage>) async throws {
        let topics = settings.topics
        let will = MQTTMessage(topic: topics.status, text: MQTTAvailability.offline.rawValue, qos: .atLeastOnce, retain: true)
        do {
            try await session.connection.send(.connect(MQTTConnect(
                clientID: settings.clientID, keepAlive: UInt16(clamping: settings.keepAlive.components.seconds),
                username: settings.username, password: settings.password, will: will
            )))
        } catch let error where !(error is MQTTPacketError) {
            // The connection closed before CONNECT went out, e.g. a broker certificate the CA
            // file does not vouch for failed the TLS handshake: the write only learns "closed",
            // the reader learns why, and that is what the status should say. (A CONNECT that
            // cannot be encoded fails at once, with its own reason.)
            try await session.waitForConnack()
            throw error
        }
        try await session.waitForConnack()
        await status.connected(at: now())
        logger.notice("Connected to the MQTT broker", metadata: ["broker": "\(settings.broker)"])
        let state = MQTTStatePublisher(
            settings: settings, session: session, database: database, hub: hub, feeds: feeds, status: status,
            commands: commands, logger: logger, clock: clock, now: now
        )
        var filters: [(topic: String, qos: MQTTQoS)] = []
        if let homeAssistant = topics.homeAssistantStatus { filters.append((homeAssistant, .atLeastOnce)) }
        if settings.acceptsCommands { filters.append((topics.switchCommands, .atLeastOnce)) }
        if !filters.isEmpty { try await session.subscribe(filters) }
        try await session.publish(MQTTMessage(topic: topics.status, text: MQTTAvailability.online.rawValue, qos: .atLeastOnce, retain: true))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await state.handle(inbox) }
            try await state.run()
            group.cancelAll()
        }
        // Graceful shutdown: say so, then leave cleanly (the broker then drops the will).
        try await session.publish(MQTTMessage(topic: topics.status, text: MQTTAvailability.offline.rawValue, qos: .atLeastOnce, retain: true))
        try await session.connection.send(.disconnect)
    }
}
