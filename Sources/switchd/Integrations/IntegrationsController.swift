import Foundation
import Hummingbird
import ScanContract
import SwitchdStore

/// How the integrations stand, for the admin page (admin only): `GET /v1/integrations/webhooks`
/// (every subscription with its counts, and the latest failures) and `GET /v1/integrations/mqtt`
/// (whether switchd is connected to its broker, the last error, the outbox's depth and what has
/// been published).
struct IntegrationsController {
    let database: AppDatabase
    let mqtt: MQTTStatus
    var now: @Sendable () -> Date = Date.init

    /// Failed deliveries listed, newest first.
    static let recentFailures = 20

    func addRoutes(to routes: Routes) {
        routes.get("/v1/integrations/webhooks", .admin, use: webhooks)
        routes.allowOnly([.get], on: "/v1/integrations/webhooks")
        routes.get("/v1/integrations/mqtt", .admin, use: showMQTT)
        routes.allowOnly([.get], on: "/v1/integrations/mqtt")
    }

    /// ``WebhookIntegrationStatus``: every subscription with its counts, and the latest failures.
    @Sendable func webhooks(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(WebhookIntegrationStatus(
            webhooks: await database.webhooks(), recentFailures: await database.recentWebhookFailures(limit: Self.recentFailures)
        ))
    }

    /// Always 200: `enabled` is false when no broker is configured. The outbox depth is read
    /// now, so it counts messages stored while the broker is away.
    ///
    /// On PostgreSQL an instance not leading the cluster's `mqtt` election answers with what the
    /// leader stored (``MQTTStatusRecorder``), naming it in `reportedBy` and `reportedAt`; a status
    /// older than ``MQTTStatusRecorder/staleAfter`` is no live leader's, so it says not connected.
    /// A stored status that cannot be read is left aside for this instance's own.
    @Sendable func showMQTT(_ request: Request, context: AppRequestContext) async throws -> Response {
        var report = await mqtt.report()
        if database.runsOnPostgres, await !mqtt.isLeading, let stored = try await database.mqttBridgeStatus(),
           var leaders = try? JSONCoding.decoder().decode(MQTTStatus.Report.self, from: Data(stored.report.utf8)) {
            leaders.reportedBy = stored.instance
            leaders.reportedAt = stored.updated
            if now().timeIntervalSince(stored.updated) > MQTTStatusRecorder.staleAfter {
                leaders.connected = false
                leaders.connectedSince = nil
            }
            report = leaders
        }
        if report.enabled {
            report.outboxDepth = try await database.mqttOutboxDepth()
        }
        return try .json(report)
    }
}
