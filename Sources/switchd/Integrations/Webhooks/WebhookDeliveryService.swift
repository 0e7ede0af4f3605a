import Foundation
import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Sends the webhook outbox: every pending delivery, at least once, in the order its events were
/// stored, so each scanner's events arrive in order.
///
/// Each webhook has its own ``WebhookWorker``, a child task started the first time this service
/// sees the webhook: a receiver that is slow, down or unreachable holds up only its own
/// deliveries, never another webhook's (nor ingest or the HTTP API, which only queue deliveries
/// in the transaction that stores an event). This service looks for new webhooks whenever an
/// event is stored; a worker ends by itself when its webhook is deleted.
///
/// The outbox is in the database, so a restart loses nothing: pending deliveries are sent again
/// at once. A failing database read is logged and retried ``retryInterval`` later. Ends on
/// graceful shutdown once every worker has finished its attempt in flight. Its HTTP client lives
/// as long as ``run()``: made when it starts, closed when it ends.
struct WebhookDeliveryService<C: Clock<Duration>>: Service {
    let database: AppDatabase
    let retry: WebhookRetryPolicy
    let destinations: WebhookDestinationPolicy
    let feeds: Feeds
    let clock: C
    let logger: Logger
    /// The wall-clock time for `webhook-timestamp` and the attempt's record.
    var now: @Sendable () -> Date = Date.init

    static var retryInterval: Duration { .seconds(1) }
    /// How long to wait with nothing new before looking again; new events wake it sooner.
    static var idleInterval: Duration { .seconds(3600) }

    func run() async throws {
        let sender = WebhookSender(timeout: retry.attemptTimeout, destinations: destinations)
        await withTaskGroup(of: Void.self) { workers in
            var started: Set<Int64> = []
            while !Task.isCancelled, !Task.isShuttingDownGracefully {
                var seen = Int64.max
                var wakeAt = clock.now.advanced(by: Self.idleInterval)
                do {
                    seen = try await database.endOfPresenceEventFeed()
                    // Webhook IDs are never reused, so a started ID never needs a second worker.
                    for id in try await database.webhookIDs() where !started.contains(id) {
                        started.insert(id)
                        let worker = WebhookWorker(
                            webhookID: id, database: database, retry: retry, sender: sender, feeds: feeds, clock: clock, logger: logger, now: now
                        )
                        workers.addTask { await worker.run() }
                    }
                } catch {
                    logger.error("Could not read the webhooks", metadata: ["error": "\(error)"])
                    wakeAt = clock.now.advanced(by: Self.retryInterval)
                    seen = Int64.max
                }
                let events = feeds.events
                let after = seen
                if await wake(at: wakeAt, on: clock, orWhen: { await events.waitForRows(after: after) }) == .stopping {
                    break
                }
            }
            await workers.waitForAll()
        }
        do {
            try await sender.shutdown()
        } catch {
            logger.warning("Could not close the webhook HTTP client", metadata: ["error": "\(error)"])
        }
    }
}
