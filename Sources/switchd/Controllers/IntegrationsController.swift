import Hummingbird
import ScanContract
import SwitchdStore

/// `GET /v1/integrations/webhooks` (admin only): how the webhooks stand, for the admin page.
struct IntegrationsController {
    let database: AppDatabase

    /// Failed deliveries listed, newest first.
    static let recentFailures = 20

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/v1/integrations/webhooks", use: webhooks)
        router.allowOnly([.get], on: "/v1/integrations/webhooks")
    }

    /// ``WebhookIntegrationStatus``: every subscription with its counts, and the latest failures.
    @Sendable func webhooks(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(WebhookIntegrationStatus(
            webhooks: await database.webhooks(), recentFailures: await database.recentWebhookFailures(limit: Self.recentFailures)
        ))
    }
}
