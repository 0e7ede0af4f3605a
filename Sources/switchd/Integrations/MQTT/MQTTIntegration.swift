import Foundation
import Logging
import NIOSSL
import ServiceLifecycle
import SwitchdStore

/// switchd's MQTT side as `buildApplication` wires it: the status every part reports to, and,
/// when a broker is configured, the outbox and the publisher service.
struct MQTTIntegration: Sendable {
    let status: MQTTStatus
    /// The generic publish path (presence events go here); nil without a broker, so nothing
    /// piles up that no one will send.
    let outbox: MQTTOutbox?
    let publisher: MQTTPublisher?
    /// Feeds presence events into ``outbox``; nil without a broker.
    let presenceRelay: MQTTPresenceRelay?
    /// Stores the leader's status for the other instances; on PostgreSQL with a broker only.
    let statusRecorder: MQTTStatusRecorder?

    /// The publisher (with the switch commands it receives), the presence relay and, on
    /// PostgreSQL, the status recorder: what must run on one switchd of a cluster at a time;
    /// empty without a broker.
    var services: [any Service] {
        [publisher as (any Service)?, presenceRelay, statusRecorder].compactMap { $0 }
    }

    init(
        settings: MQTTSettings?, tls: NIOSSLContext?, database: AppDatabase, hub: SwitchHub, feeds: Feeds, metrics: SwitchdMetrics,
        logger: Logger, clock: any Clock<Duration>, now: @escaping @Sendable () -> Date = Date.init, status: MQTTStatus? = nil
    ) {
        self.status = status ?? MQTTStatus(broker: settings?.broker, factory: metrics.factory)
        guard let settings else {
            outbox = nil
            publisher = nil
            presenceRelay = nil
            statusRecorder = nil
            return
        }
        statusRecorder = database.runsOnPostgres
            ? MQTTStatusRecorder(status: self.status, database: database, settings: settings, logger: logger, clock: clock, now: now) : nil
        let topics = settings.topics
        let outbox = MQTTOutbox(database: database, topics: topics, status: self.status)
        self.outbox = outbox
        presenceRelay = MQTTPresenceRelay(database: database, outbox: outbox, feed: feeds.events, logger: logger, clock: clock)
        let commands = settings.acceptsCommands ? MQTTSwitchCommands(
            database: database, hub: hub, topics: topics, secret: settings.commandSecret, nonces: MQTTCommandNonces(window: settings.commandWindow),
            metrics: MQTTCommandMetrics(factory: metrics.factory), logger: logger, now: now
        ) : nil
        publisher = MQTTPublisher(
            settings: settings, tls: tls, database: database, hub: hub, feeds: feeds, status: self.status, commands: commands,
            logger: logger, clock: clock, now: now
        )
    }
}
