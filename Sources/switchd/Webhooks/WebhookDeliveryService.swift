import Foundation
import Logging
import ScanContract
import ServiceLifecycle
import SwitchdStore

/// Sends the webhook outbox: every pending delivery, at least once, in the order its events were
/// stored, so each scanner's events arrive in order.
///
/// Per webhook it sends the oldest pending delivery first. A failed attempt is recorded and the
/// webhook waits ``WebhookRetryPolicy/delay(afterAttempts:)`` on `clock` before trying that
/// delivery again; the deliveries after it wait too, so order holds. After
/// ``WebhookRetryPolicy/maxAttempts`` the delivery is `dead` and the next one goes. Webhooks are
/// served in turn, one delivery at a time; a webhook waiting for a retry does not hold up the others.
///
/// The outbox is in the database (queued in the transaction that stored the event), so a
/// restart loses nothing: pending deliveries are sent again at once. Ingest never waits on this.
/// A failing database read or write is logged and retried ``retryInterval`` later. Ends on
/// graceful shutdown. Its HTTP client lives as long as ``run()``: made when it starts, closed when it ends.
struct WebhookDeliveryService<C: Clock<Duration>>: Service {
    let database: AppDatabase
    let retry: WebhookRetryPolicy
    let feeds: Feeds
    let clock: C
    let logger: Logger
    /// The wall-clock time for `webhook-timestamp` and the attempt's record.
    var now: @Sendable () -> Date = Date.init

    /// Deliveries read at a time per webhook.
    static var batchSize: Int { 100 }
    static var retryInterval: Duration { .seconds(1) }
    /// How long to wait with nothing pending before looking again; new events wake it sooner.
    static var idleInterval: Duration { .seconds(3600) }

    func run() async throws {
        let sender = WebhookSender()
        var retryAt: [Int64: C.Instant] = [:]
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            var seen = Int64.max
            var wakeAt = clock.now.advanced(by: Self.idleInterval)
            do {
                seen = try await database.endOfPresenceEventFeed()
                let targets = try await database.webhookTargetsWithPendingDeliveries()
                retryAt = retryAt.filter { id, _ in targets.contains { $0.id == id } }
                var finishedABatch = false
                for target in targets {
                    if let due = retryAt[target.id], clock.now < due { continue }
                    retryAt[target.id] = nil
                    if try await sendBatch(to: target, with: sender, retryAt: &retryAt) { finishedABatch = true }
                }
                // A whole batch went: more may be pending.
                if finishedABatch { continue }
                wakeAt = retryAt.values.min() ?? wakeAt
                // Due already: go round again rather than sleep until a deadline that has passed.
                if wakeAt <= clock.now { continue }
            } catch {
                logger.error("Could not send the webhook outbox", metadata: ["error": "\(error)"])
                wakeAt = clock.now.advanced(by: Self.retryInterval)
                seen = Int64.max
            }
            let events = feeds.events
            let after = seen
            if await wake(at: wakeAt, on: clock, orWhen: { await events.waitForRows(after: after) }) == .stopping {
                break
            }
        }
        do {
            try await sender.shutdown()
        } catch {
            logger.warning("Could not close the webhook HTTP client", metadata: ["error": "\(error)"])
        }
    }

    /// Sends up to ``batchSize`` of `target`'s pending deliveries in order, then records the
    /// attempts in one transaction; false when one failed and will be retried (its retry time is
    /// then in `retryAt`). A crash before the record sends them again: at least once.
    private func sendBatch(to target: WebhookTarget, with sender: WebhookSender, retryAt: inout [Int64: C.Instant]) async throws -> Bool {
        var attempts: [DeliveryAttempt] = []
        for delivery in try await database.pendingDeliveries(of: target.id, limit: Self.batchSize) {
            var outcome = await sender.deliver(delivery.event, to: target, at: now())
            if case .failed(let status, let reason, _) = outcome {
                let count = delivery.attempts + 1
                let dead = retry.isDead(afterAttempts: count)
                outcome = .failed(status: status, reason: reason, dead: dead)
                logger.warning("Webhook delivery failed", metadata: [
                    "webhook": "\(target.id)", "event": "\(delivery.event.id)", "attempts": "\(count)", "reason": "\(reason)",
                    "dead": "\(dead)",
                ])
                if !dead {
                    // Fixed before the attempt is announced, so whoever moves the clock next cannot miss it.
                    retryAt[target.id] = clock.now.advanced(by: retry.delay(afterAttempts: count))
                }
            }
            attempts.append(DeliveryAttempt(deliveryID: delivery.id, outcome: outcome, time: Date(milliseconds: now().milliseconds)))
            if retryAt[target.id] != nil { break }
        }
        try await database.recordDeliveryAttempts(attempts)
        await feeds.webhookAttempts.bump(by: Int64(attempts.count))
        return retryAt[target.id] == nil
    }
}
