import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Puts every presence event switchd stores into the MQTT outbox (topic
/// `<prefix>/scanners/<id>/events`, a tag's `<prefix>/tags/<id>/events`, QoS 1), in the order stored, each exactly once: the event and
/// the relay's cursor move in one transaction (``MQTTOutbox/putPresence(_:)``). On its first start
/// ever it begins with the next event stored; after a restart, after the last one relayed, so
/// events stored while the broker was away, or while switchd was stopped, still go out.
///
/// A database failure is logged and the relay starts again from its cursor after `retryDelay`
/// on `clock`; only graceful shutdown ends it.
struct MQTTPresenceRelay: Service {
    let database: AppDatabase
    let outbox: MQTTOutbox
    /// Announces each presence event stored (``Feeds/events``).
    let feed: SequenceFeed
    let logger: Logger
    var clock: any Clock<Duration> = ContinuousClock()
    var retryDelay: Duration = .seconds(1)

    func run() async throws {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await relay() }
                return
            } catch is CancellationError {
                return
            } catch {
                logger.error("Presence events not relayed to MQTT; trying again", metadata: ["error": "\(error)"])
            }
            do {
                try await cancelWhenGracefulShutdown { [clock, retryDelay] in try await clock.sleep(for: retryDelay) }
            } catch {
                return
            }
        }
    }

    private func relay() async throws {
        let start = try await database.mqttPresenceCursor(startingAt: database.endOfPresenceEventFeed())
        for try await event in database.presenceEventSource(matching: PresenceEventFilter(), feed: feed).follow(after: start) {
            try await outbox.putPresence(event)
        }
    }
}
