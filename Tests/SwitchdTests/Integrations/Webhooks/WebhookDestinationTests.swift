import Clocks
import Foundation
import Harness
import Hummingbird
import HummingbirdTesting
import ScanContract
import Synchronization
import Testing
@testable import switchd
@testable import SwitchdStore

/// Where a webhook may go: URLs are checked when an admin gives them and again before each
/// delivery; loopback, link-local and private addresses are refused unless allowed; a stored
/// webhook that cannot be used is given up with its reason and never stops switchd.
@Suite(.timeLimit(.minutes(1))) struct WebhookDestinationTests {
    static let rules = PresenceRules(dwell: .zero, awayAfter: .seconds(3600))

    @Test(arguments: [
        ("http://127.0.0.1:99999/x", "port must be from 1 to 65535, got 99999"),
        ("http://127.0.0.1:0/x", "port must be from 1 to 65535, got 0"),
        ("http://127.0.0.1:8080/x\r\nX-Injected: 1", "U+000D at character 23"),
        ("http://127.0.0.1:8080/a b", "U+0020 at character 23"),
        ("http://127.0.0.1:8080/\u{202E}gpj.exe", "U+202E"),
        ("ftp://127.0.0.1/x", "must be an absolute http or https URL"),
        ("http:///x", "must be an absolute http or https URL"),
        ("https://user:pw@127.0.0.1/x", "must not carry a user name or password"),
    ])
    func aURLThatCannotBeUsedIsRefusedWhenGivenNamingTheProblem(url: String, reason: String) async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let response = try await client.send(.post, "/v1/webhooks", json: NewWebhook(url: url))
            #expect(response.status == .unprocessableContent)
            let error = try errorBody(response)
            #expect(error.field == "url" && error.message.contains(reason), "\(error)")
            #expect(try await client.expect(.ok, get: "/v1/webhooks", as: Page<Webhook>.self).items.isEmpty, "nothing stored")
        }
    }

    @Test func addressesAreClassedAsTheirRangesSay() throws {
        func kind(_ literal: String) throws -> IPAddress.Kind { try #require(IPAddress(literal: literal)).kind }
        #expect(try kind("127.0.0.1") == .loopback && kind("127.255.0.9") == .loopback && kind("::1") == .loopback)
        #expect(try kind("169.254.169.254") == .linkLocal && kind("fe80::1") == .linkLocal && kind("[fe80::1]") == .linkLocal)
        #expect(try ["10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "fd00::1"].map(kind).allSatisfy { $0 == .privateUse })
        #expect(try kind("172.32.0.1") == .global && kind("8.8.8.8") == .global && kind("2001:db8::1") == .global)
        #expect(try kind("0.0.0.0") == .unspecified && kind("::") == .unspecified)
        #expect(try kind("224.0.0.1") == .multicastOrReserved && kind("255.255.255.255") == .multicastOrReserved && kind("ff02::1") == .multicastOrReserved)
        #expect(try kind("::ffff:169.254.169.254") == .linkLocal && kind("::ffff:127.0.0.1") == .loopback, "IPv4-mapped counts as its IPv4")
        #expect(try kind("64:ff9b::a00:1") == .privateUse, "NAT64 counts as its IPv4")
        #expect(try kind("100.100.100.200") == .linkLocal && kind("fd00:ec2::254") == .linkLocal, "cloud metadata, whatever the flag")
        #expect(try ["::127.0.0.1", "64:ff9b:1::a9fe:a9fe", "fec0::1", "192.0.0.8", "198.18.0.1"].map(kind).allSatisfy { $0 == .multicastOrReserved })
        #expect(IPAddress(literal: "hooks.example.org") == nil)
    }

    @Test func byDefaultLoopbackLinkLocalAndPrivateDestinationsAreRefusedWhenGiven() async throws {
        let names: [String: [IPAddress]] = ["metadata.internal": [.v4(0xA9FE_A9FE)], "nas.lan": [.v4(0xC0A8_0102)], "hooks.example.org": [.v4(0x5DB8_D822)]]
        let strict = WebhookDestinationPolicy(allowsPrivate: false) { names[$0] ?? [] }
        let relaxed = WebhookDestinationPolicy(allowsPrivate: true) { names[$0] ?? [] }
        try await makeIntegrationApp(try .inMemory(), destinations: strict, feeds: Feeds(), clock: TestClock()).test(.router) { client in
            for (url, reason) in [
                ("http://127.0.0.1:8080/x", "loopback address, which webhooks may reach only with --webhook-allow-private"),
                ("http://[::1]:8080/x", "loopback address"),
                ("http://169.254.169.254/latest/meta-data", "link-local address, which webhooks never reach"),
                ("http://metadata.internal/x", "link-local address"),
                ("http://10.0.0.7/x", "private address"),
                ("https://nas.lan/hook", "private address"),
            ] {
                let response = try await client.send(.post, "/v1/webhooks", json: NewWebhook(url: url))
                #expect(response.status == .unprocessableContent, "\(url)")
                let message = try errorBody(response).message
                #expect(message.contains(reason), "\(url): \(message)")
            }
            _ = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(url: "https://hooks.example.org/x"), as: CreatedWebhook.self)
            _ = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(url: "https://not-resolving.example.org/x"), as: CreatedWebhook.self)
            #expect(try await client.expect(.ok, get: "/v1/webhooks", as: Page<Webhook>.self).items.count == 2)
        }
        try await makeIntegrationApp(try .inMemory(), destinations: relaxed, feeds: Feeds(), clock: TestClock()).test(.router) { client in
            _ = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(url: "https://nas.lan/hook"), as: CreatedWebhook.self)
            _ = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:8080/x"), as: CreatedWebhook.self)
            let metadata = try await client.send(.post, "/v1/webhooks", json: NewWebhook(url: "http://169.254.169.254/x"))
            #expect(metadata.status == .unprocessableContent, "link-local stays refused with --webhook-allow-private")
        }
    }

    @Test func aNameThatComesToResolveToAPrivateAddressIsNotDeliveredTo() async throws {
        let answer = Mutex<[IPAddress]>([.v4(0x5DB8_D822)])
        let policy = WebhookDestinationPolicy(allowsPrivate: false) { _ in answer.withLock { $0 } }
        let feeds = Feeds()
        let retry = WebhookRetryPolicy(maxAttempts: 1)
        try await makeIntegrationApp(try .inMemory(), presence: Self.rules, retry: retry, destinations: policy, feeds: feeds, clock: TestClock())
            .test(.live) { client in
                let hook = try await client.expect(
                    .created, .post, "/v1/webhooks", json: NewWebhook(url: "http://hooks.example.org/x", events: [.entered]), as: CreatedWebhook.self
                )
                answer.withLock { $0 = [.v4(0xA9FE_A9FE)] }   // the name now points at the metadata service
                let world = try await PresenceWorld.make(client)
                _ = try await world.post([RecordedPosition(t: 0, room: nil, x: 2, y: 3)], with: client)
                await feeds.webhookAttempts.wait(untilAbove: 0)
                let delivery = try await client.expect(.ok, get: "/v1/webhooks/\(hook.webhook.id)/deliveries", as: Page<WebhookDelivery>.self).items
                #expect(delivery.map(\.state) == [.dead] && delivery.first?.lastStatus == nil)
                #expect(delivery.first?.lastError == "the host resolves to a link-local address, which webhooks never reach")
            }
    }

    /// Rows an older switchd, or a hand edit, could have left: a port no socket has, a URL with a
    /// line break, a secret that is not one. Each delivery to them is given up at once with its
    /// reason, the good webhook beside them is delivered, and a restart over the same file
    /// neither crashes nor tries them again.
    @Test func aStoredWebhookThatCannotBeUsedIsGivenUpWithItsReasonAndSwitchdGoesOnAcrossARestart() async throws {
        let folder = try TemporaryFolder("webhook-rows")
        defer { folder.remove() }
        let receiver = WebhookReceiver()
        try await receiver.application().test(.live) { receiverClient in
            let port = try #require(receiverClient.port)
            let database = try AppDatabase.open(stateDirectory: folder.url.path)
            let secret = "whsec_" + Data(repeating: 7, count: 32).base64EncodedString()
            try await database.writeStatements { sql in
                for (url, secret) in [
                    ("http://127.0.0.1:99999/x", secret), ("http://127.0.0.1:8080/x\r\nX-Injected: 1", secret),
                    ("http://127.0.0.1:\(port)/bad-secret", "not a secret"), ("http://127.0.0.1:\(port)/good", secret),
                ] {
                    try sql.execute("INSERT INTO webhook (url, secret, events, created_ms) VALUES (?, ?, 'entered', 0)", [.text(url), .text(secret)])
                }
            }
            let feeds = Feeds()
            let ids: [Int64] = try await makeIntegrationApp(database, presence: Self.rules, feeds: feeds, clock: TestClock()).test(.live) { client in
                let world = try await PresenceWorld.make(client)
                _ = try await world.post([RecordedPosition(t: 0, room: nil, x: 2, y: 3)], with: client)
                await receiver.waitForAccepted(1)
                await feeds.webhookAttempts.wait(untilAbove: 3)
                #expect(await receiver.requests.map(\.path) == ["good"])
                let webhooks = try await client.expect(.ok, get: "/v1/webhooks", as: Page<Webhook>.self).items
                var reasons: [String?] = []
                for webhook in webhooks.prefix(3) {
                    let deliveries = try await client.expect(.ok, get: "/v1/webhooks/\(webhook.id)/deliveries", as: Page<WebhookDelivery>.self).items
                    #expect(deliveries.map(\.state) == [.dead] && deliveries.map(\.attempts) == [1], "given up at the first attempt")
                    reasons.append(deliveries.first?.lastError)
                }
                #expect(reasons == [
                    "the stored URL cannot be used: port must be from 1 to 65535, got 99999",
                    "the stored URL cannot be used: must not contain spaces or control characters (U+000D at character 23); percent-encode it",
                    "the stored secret is not a Standard Webhooks secret",
                ])
                #expect(try await client.get("/healthz").status == .ok)
                return webhooks.map(\.id)
            }
            let restarted = Feeds()
            try await makeIntegrationApp(try .open(stateDirectory: folder.url.path), presence: Self.rules, feeds: restarted, clock: TestClock())
                .test(.live) { client in
                    #expect(try await client.get("/healthz").status == .ok)
                    let counts = try await client.expect(.ok, get: "/v1/webhooks", as: Page<Webhook>.self).items.map(\.deliveries)
                    #expect(counts == [
                        WebhookDeliveryCounts(pending: 0, delivered: 0, dead: 1), WebhookDeliveryCounts(pending: 0, delivered: 0, dead: 1),
                        WebhookDeliveryCounts(pending: 0, delivered: 0, dead: 1), WebhookDeliveryCounts(pending: 0, delivered: 1, dead: 0),
                    ])
                    #expect(ids.count == 4)
                }
            #expect(await receiver.requests.count == 1, "nothing was sent again after the restart")
        }
    }
}
