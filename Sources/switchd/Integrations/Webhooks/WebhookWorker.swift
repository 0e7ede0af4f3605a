import Foundation
import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Sends one webhook's pending deliveries, oldest first, until the webhook is deleted or switchd
/// shuts down gracefully (after the attempt in flight).
///
/// A failed attempt is recorded and the worker waits ``WebhookRetryPolicy/delay(afterAttempts:)``
/// on `clock` before trying that delivery again; the deliveries after it wait too, so order
/// holds. After ``WebhookRetryPolicy/maxAttempts`` the delivery is `dead` and the next one goes;
/// one the sender finds can never go (a stored URL or secret that cannot be used) is `dead` at once.
/// With nothing pending it waits for the next event stored. A failing database read or write is
/// logged and retried ``WebhookDeliveryService/retryInterval`` later; unrecorded attempts are
/// sent again then: at least once.
struct WebhookWorker<C: Clock<Duration>>: Sendable {
    let webhookID: Int64
    let database: AppDatabase
    let retry: WebhookRetryPolicy
    let sender: WebhookSender
    let feeds: Feeds
    let clock: C
    let logger: Logger
    let now: @Sendable () -> Date

    /// Deliveries read at a time.
    static var batchSize: Int { 100 }

    /// Where a batch left the webhook.
    private enum Progress {
        /// A whole batch went: more may be pending.
        case more
        /// Nothing is pending any more.
        case caughtUp
        /// An attempt failed; the next is due at this instant.
        case retry(at: C.Instant)
        /// The webhook was deleted.
        case gone
    }

    func run() async {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            // Read before the outbox, so an event stored in between still wakes the wait below.
            var seen = Int64.max
            var wakeAt = clock.now.advanced(by: WebhookDeliveryService<C>.idleInterval)
            do {
                seen = try await database.endOfPresenceEventFeed()
                switch try await sendBatch() {
                case .more: continue
                case .caughtUp: break
                case .gone: return
                case .retry(let due):
                    // Only time ends this wait: new events queue behind the failed one.
                    wakeAt = due
                    seen = Int64.max
                }
            } catch {
                logger.error("Could not send the webhook outbox", metadata: ["webhook": "\(webhookID)", "error": "\(error)"])
                wakeAt = clock.now.advanced(by: WebhookDeliveryService<C>.retryInterval)
                seen = Int64.max
            }
            let events = feeds.events
            let after = seen
            if await wake(at: wakeAt, on: clock, orWhen: { await events.waitForRows(after: after) }) == .stopping {
                return
            }
        }
    }

    /// Sends up to ``batchSize`` pending deliveries in order, stopping at the first that fails
    /// and is to be tried again, then records the attempts in one transaction. A crash before the
    /// record sends them again: at least once.
    private func sendBatch() async throws -> Progress {
        guard let target = try await database.webhookTarget(webhookID) else { return .gone }
        let pending = try await database.pendingDeliveries(of: target.id, limit: Self.batchSize)
        var attempts: [DeliveryAttempt] = []
        var progress: Progress = pending.count == Self.batchSize ? .more : .caughtUp
        for delivery in pending {
            var outcome = await sender.deliver(delivery.event, to: target, at: now())
            if case .failed(let status, let reason, let unusable) = outcome {
                let count = delivery.attempts + 1
                let dead = unusable || retry.isDead(afterAttempts: count)
                outcome = .failed(status: status, reason: reason, dead: dead)
                logger.warning("Webhook delivery failed", metadata: [
                    "webhook": "\(target.id)", "event": "\(delivery.event.id)", "attempts": "\(count)", "reason": "\(reason)",
                    "dead": "\(dead)",
                ])
                if !dead {
                    // Fixed before the attempt is announced, so whoever moves the clock next cannot miss it.
                    progress = .retry(at: clock.now.advanced(by: retry.delay(afterAttempts: count)))
                }
            }
            attempts.append(DeliveryAttempt(deliveryID: delivery.id, outcome: outcome, time: Date(milliseconds: now().milliseconds)))
            if case .retry = progress { break }
        }
        try await database.recordDeliveryAttempts(attempts)
        await feeds.webhookAttempts.bump(by: Int64(attempts.count))
        return progress
    }
}
