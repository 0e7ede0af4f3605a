import Hummingbird
import SwitchdStore

/// `/v1/integrations/mqtt` (admin): whether switchd is connected to its MQTT broker, the last
/// error, the outbox's depth and what has been published, for the admin page.
struct IntegrationsController {
    let database: AppDatabase
    let mqtt: MQTTStatus

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/integrations/mqtt", use: showMQTT)
        router.allowOnly([.get], on: "/v1/integrations/mqtt")
    }

    /// Always 200: `enabled` is false when no broker is configured. The outbox depth is read
    /// now, so it counts messages stored while the broker is away.
    @Sendable func showMQTT(_ request: Request, context: AppRequestContext) async throws -> Response {
        var report = await mqtt.report()
        if report.enabled {
            report.outboxDepth = try await database.mqttOutboxDepth()
        }
        return try .json(report)
    }
}
