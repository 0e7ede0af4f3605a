import Foundation
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `/v1/webhooks`: what is accepted, refused and deleted.
@Suite struct WebhookSubscriptionTests {
    @Test func unusableSubscriptionsAreRefusedNamingTheFieldAndNothingIsStored() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let cases: [(NewWebhook, String)] = [
                (NewWebhook(url: "ftp://example.org/hook"), "url"),
                (NewWebhook(url: "/relative/hook"), "url"),
                (NewWebhook(url: "https://user:pw@example.org/hook"), "url"),
                (NewWebhook(url: "https://example.org/hook", secret: "hunter2"), "secret"),
                (NewWebhook(url: "https://example.org/hook", secret: "whsec_" + Data(count: 8).base64EncodedString()), "secret"),
                (NewWebhook(url: "https://example.org/hook", events: []), "events"),
            ]
            for (new, field) in cases {
                let response = try await client.send(.post, "/v1/webhooks", json: new)
                #expect(response.status == .unprocessableContent, "\(new)")
                #expect(try errorBody(response).field == field)
            }
            #expect(try await client.expect(.ok, get: "/v1/webhooks", as: Page<Webhook>.self).items.isEmpty)
        }
    }

    @Test func aDeletedWebhookIsGoneWithItsDeliveries() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let created = try await client.expect(
                .created, .post, "/v1/webhooks", json: NewWebhook(url: "https://example.org/hook", events: [.away, .back]), as: CreatedWebhook.self
            )
            #expect(created.webhook.events == [.away, .back])
            #expect(try await client.execute(uri: "/v1/webhooks/\(created.webhook.id)", method: .delete).status == .noContent)
            #expect(try await client.execute(uri: "/v1/webhooks/\(created.webhook.id)", method: .delete).status == .notFound)
            #expect(try await client.get("/v1/webhooks/\(created.webhook.id)/deliveries").status == .notFound)
            #expect(try await client.expect(.ok, get: "/v1/webhooks", as: Page<Webhook>.self).items.isEmpty)
        }
    }
}
