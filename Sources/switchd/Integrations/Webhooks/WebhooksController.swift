import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/webhooks` (admin only): subscriptions to presence events, and each one's deliveries.
struct WebhooksController {
    let database: AppDatabase
    let destinations: WebhookDestinationPolicy
    /// Subscriptions that may exist at once (``Limits/maxWebhooks``).
    var maxWebhooks = Limits.defaultMaxWebhooks

    func addRoutes(to routes: Routes) {
        routes.post("/v1/webhooks", .admin, use: create)
        routes.get("/v1/webhooks", .admin, use: list)
        routes.delete("/v1/webhooks/{id}", .admin, use: delete)
        routes.get("/v1/webhooks/{id}/deliveries", .admin, use: deliveries)
        routes.allowOnly([.get, .post], on: "/v1/webhooks")
        routes.allowOnly([.delete], on: "/v1/webhooks/{id}")
        routes.allowOnly([.get], on: "/v1/webhooks/{id}/deliveries")
    }

    /// 201 ``CreatedWebhook``, the only answer that shows the secret (made here when the request
    /// has none). 422 naming `url`, `secret` or `events` when one is unusable, and naming `url`
    /// when its host is or resolves to an address ``WebhookDestinationPolicy`` refuses. A name
    /// that does not resolve now is accepted (it may later) and checked before each delivery.
    /// 409 when ``maxWebhooks`` subscriptions exist.
    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewWebhook.self, context: context)
        try new.validate()
        let host = try WebhookURL(new.url).host
        switch await destinations.check(host: host) {
        case .allowed: break
        case .refused(let why): throw ValidationError(field: "url", reason: "the host \(why)")
        case .unresolved: context.logger.warning("Webhook host does not resolve now; deliveries will check it again", metadata: ["host": "\(host)"])
        }
        let secret = new.secret ?? WebhookSignature.generateSecret()
        let webhook = try await database.createWebhook(new, secret: secret, at: .nowInMilliseconds(), max: maxWebhooks)
        context.logger.info("Webhook registered", metadata: ["webhook": "\(webhook.id)", "url": "\(webhook.url)"])
        return try .json(CreatedWebhook(secret: secret, webhook: webhook), status: .created)
    }

    /// A ``Page`` of ``Webhook`` by ID (`limit`, `cursor`), with their delivery counts; never a secret.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (after, limit) = try QueryParameters(request).pageRange()
        let webhooks = try await database.webhooks(after: after, limit: limit + 1)
        return try .json(Page(read: webhooks, limit: limit) { FeedCursor(afterSequence: $0.id).token })
    }

    /// 204; its pending deliveries are dropped. 404 for an unknown ID.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("webhook")
        try await database.deleteWebhook(id)
        context.logger.info("Webhook deleted", metadata: ["webhook": "\(id)"])
        return Response(status: .noContent)
    }

    /// A ``Page`` of ``WebhookDelivery``, ascending, `state` filtering; 404 for an unknown webhook.
    @Sendable func deliveries(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let (after, limit) = try query.pageRange()
        let state = try query.oneOf("state", WebhookDeliveryState.self)
        let id = try context.pathID("webhook")
        let slice = try await database.webhookDeliveries(of: id, state: state, after: after, limit: limit + 1)
        return try .json(Page(slice, limit: limit, sequence: \.id))
    }
}
