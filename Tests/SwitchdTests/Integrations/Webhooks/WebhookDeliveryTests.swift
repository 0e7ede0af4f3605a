import Clocks
import Foundation
import Harness
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Webhook deliveries from a running switchd to a real receiver on loopback: signed, in order,
/// retried on a ``TestClock`` while the receiver is down, dead after the limit, never redirected.
@Suite(.timeLimit(.minutes(1))) struct WebhookDeliveryTests {
    /// Hall, then office, with no dwell: entered floor, entered hall, left hall, entered office.
    static let hallThenOffice = [RecordedPosition(t: 0, room: "hall", x: 2, y: 3), RecordedPosition(t: 2, room: "office", x: 7, y: 3)]
    static let rules = PresenceRules(dwell: .zero, awayAfter: .seconds(3600))

    @Test func deliveriesAreSignedCarryTheEventAndArriveInOrder() async throws {
        let receiver = WebhookReceiver()
        try await receiver.application().test(.live) { receiverClient in
            let port = try #require(receiverClient.port)
            let feeds = Feeds()
            try await makeIntegrationApp(try .inMemory(), presence: Self.rules, feeds: feeds, clock: TestClock()).test(.live) { client in
                let all = try await client.expect(
                    .created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(port)/all"), as: CreatedWebhook.self
                )
                #expect(all.secret.hasPrefix("whsec_") && all.webhook.events == PresenceEventKind.allCases)
                let leftOnly = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(
                    url: "http://127.0.0.1:\(port)/left", secret: "whsec_" + Data(repeating: 7, count: 32).base64EncodedString(), events: [.left]
                ), as: CreatedWebhook.self)
                let world = try await PresenceWorld.make(client)
                _ = try await world.post(Self.hallThenOffice, with: client)
                await receiver.waitForAccepted(5)

                let received = await receiver.accepted
                let toAll = received.filter { $0.path == "all" }
                #expect(toAll.map(\.id) == ["evt_1", "evt_2", "evt_3", "evt_4"])
                #expect(toAll.allSatisfy { $0.isSigned(with: all.secret) })
                #expect(!toAll.contains { $0.isSigned(with: leftOnly.secret) })
                let payloads = try toAll.map { try $0.payload() }
                #expect(payloads.map(\.type) == ["presence.entered", "presence.entered", "presence.left", "presence.entered"])
                #expect(payloads.map(\.data.roomID) == [nil, world.hall.id, world.hall.id, world.office.id])
                let events = try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
                #expect(payloads.map(\.data) == events)
                let toLeft = received.filter { $0.path == "left" }
                #expect(toLeft.map(\.id) == ["evt_3"] && toLeft.allSatisfy { $0.isSigned(with: leftOnly.secret) })

                let listed = try await client.get("/v1/webhooks")
                #expect(!String(buffer: listed.body).contains(all.secret), "the secret is shown once, when created")
                let webhooks = try decoded(Page<Webhook>.self, listed).items
                #expect(webhooks.map(\.deliveries) == [
                    WebhookDeliveryCounts(pending: 0, delivered: 4, dead: 0), WebhookDeliveryCounts(pending: 0, delivered: 1, dead: 0),
                ])
                let deliveries = try await client.expect(.ok, get: "/v1/webhooks/\(all.webhook.id)/deliveries?limit=2", as: Page<WebhookDelivery>.self)
                #expect(deliveries.items.map(\.eventID) == [1, 2] && deliveries.nextCursor != nil)
                #expect(deliveries.items.allSatisfy { $0.state == .delivered && $0.attempts == 1 && $0.lastStatus == 204 })
            }
        }
    }

    @Test func aReceiverDownForAWhileGetsEveryEventAfterwardsInOrder() async throws {
        let receiver = WebhookReceiver()
        await receiver.answer(.fail(.serviceUnavailable))
        try await receiver.application().test(.live) { receiverClient in
            let port = try #require(receiverClient.port)
            let feeds = Feeds()
            let clock = TestClock()
            try await makeIntegrationApp(try .inMemory(), presence: Self.rules, feeds: feeds, clock: clock).test(.live) { client in
                let hook = try await client.expect(
                    .created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(port)/hook"), as: CreatedWebhook.self
                )
                _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("porter")), as: ScanContract.Scanner.self)
                let world = try await PresenceWorld.make(client)
                _ = try await world.post(Self.hallThenOffice, with: client)
                // Three failed attempts at the first event, each retried after the backoff (1 s, 2 s).
                await feeds.webhookAttempts.wait(untilAbove: 0)
                await clock.advance(by: .seconds(1) + .milliseconds(1))
                await feeds.webhookAttempts.wait(untilAbove: 1)
                // More events while it is down, from another scanner too.
                let more = try await world.post([RecordedPosition(t: 0, room: "office", x: 7, y: 3)], with: client, scanner: try ScannerID("porter"))
                _ = try await world.post([RecordedPosition(t: 4, room: "hall", x: 2, y: 3)], with: client)
                await feeds.presenceHasRead(more[0].id + 1)
                await clock.advance(by: .seconds(2) + .milliseconds(1))
                await feeds.webhookAttempts.wait(untilAbove: 2)
                #expect(await receiver.accepted.isEmpty)

                await receiver.answer(.accept)
                await clock.advance(by: .seconds(4) + .milliseconds(1))
                let events = try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
                #expect(events.count == 8)
                await receiver.waitForAccepted(events.count)
                let received = await receiver.accepted
                #expect(received.map(\.id) == events.map { "evt_\($0.id)" }, "every event, in the order stored")
                #expect(received.allSatisfy { $0.isSigned(with: hook.secret) })
                #expect(await receiver.requests.count == events.count + 3)
                let first = try await client.expect(.ok, get: "/v1/webhooks/\(hook.webhook.id)/deliveries?limit=1", as: Page<WebhookDelivery>.self)
                #expect(first.items.first?.attempts == 4 && first.items.first?.state == .delivered && first.items.first?.lastError == nil)
            }
        }
    }

    @Test func aReceiverThatDoesNotAnswerHoldsUpOnlyItsOwnDeliveries() async throws {
        let stuck = WebhookReceiver()
        await stuck.answer(.holdUntilReleased)
        let healthy = WebhookReceiver()
        try await stuck.application().test(.live) { stuckClient in
            try await healthy.application().test(.live) { healthyClient in
                let (stuckPort, healthyPort) = (try #require(stuckClient.port), try #require(healthyClient.port))
                let feeds = Feeds()
                // The held attempt never times out within the test: only the release ends it.
                var retry = WebhookRetryPolicy()
                retry.attemptTimeout = .seconds(3600)
                try await makeIntegrationApp(try .inMemory(), presence: Self.rules, retry: retry, feeds: feeds, clock: TestClock()).test(.live) { client in
                    // Registered first, so a sender that served webhooks in turn would be stuck on it.
                    let toStuck = try await client.expect(
                        .created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(stuckPort)/hook"), as: CreatedWebhook.self
                    )
                    _ = try await client.expect(
                        .created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(healthyPort)/hook"), as: CreatedWebhook.self
                    )
                    let world = try await PresenceWorld.make(client)
                    _ = try await world.post(Self.hallThenOffice, with: client)
                    await stuck.heldCount.wait(untilAbove: 0)
                    await healthy.waitForAccepted(4)
                    // Ingest and the API go on too while the first receiver holds its request.
                    _ = try await world.post([RecordedPosition(t: 4, room: "hall", x: 2, y: 3)], with: client)
                    await healthy.waitForAccepted(6)
                    let events = try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
                    #expect(await healthy.accepted.map(\.id) == events.map { "evt_\($0.id)" })
                    #expect(await stuck.requests.count == 1, "one attempt in flight, none given up")

                    await stuck.release()
                    await stuck.waitForAccepted(events.count)
                    #expect(await stuck.accepted.map(\.id) == events.map { "evt_\($0.id)" }, "every event, in the order stored")
                    await feeds.webhookAttempts.wait(untilAbove: Int64(2 * events.count) - 1)
                    let deliveries = try await client.expect(
                        .ok, get: "/v1/webhooks/\(toStuck.webhook.id)/deliveries", as: Page<WebhookDelivery>.self
                    ).items
                    #expect(deliveries.map(\.attempts) == Array(repeating: 1, count: events.count) && deliveries.allSatisfy { $0.state == .delivered })
                }
            }
        }
    }

    @Test func pendingDeliveriesSurviveARestartOfSwitchd() async throws {
        let folder = try TemporaryFolder("webhook-restart")
        defer { folder.remove() }
        let receiver = WebhookReceiver()
        await receiver.answer(.fail(.serviceUnavailable))
        try await receiver.application().test(.live) { receiverClient in
            let port = try #require(receiverClient.port)
            let before = Feeds()
            // The retry is due 1 s after the failed attempt, on a clock that never moves: only the restart sends it again.
            let events = try await makeIntegrationApp(
                try .open(stateDirectory: folder.url.path), presence: Self.rules, feeds: before, clock: TestClock()
            ).test(.live) { client in
                _ = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(port)/hook"), as: CreatedWebhook.self)
                let world = try await PresenceWorld.make(client)
                _ = try await world.post(Self.hallThenOffice, with: client)
                await before.webhookAttempts.wait(untilAbove: 0)
                return try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
            }
            #expect(await receiver.accepted.isEmpty && events.count == 4)

            await receiver.answer(.accept)
            let after = Feeds()
            try await makeIntegrationApp(try .open(stateDirectory: folder.url.path), presence: Self.rules, feeds: after, clock: TestClock()).test(.live) { client in
                await receiver.waitForAccepted(events.count)
                #expect(await receiver.accepted.map(\.id) == events.map { "evt_\($0.id)" }, "every event, in the order stored")
                await after.webhookAttempts.wait(untilAbove: Int64(events.count) - 1)
                let deliveries = try await client.expect(.ok, get: "/v1/webhooks/1/deliveries", as: Page<WebhookDelivery>.self).items
                #expect(deliveries.map(\.attempts) == [2, 1, 1, 1] && deliveries.allSatisfy { $0.state == .delivered })
            }
        }
    }

    @Test func aDeliveryIsDeadAfterTheLimitAndTheNextOnesStillGo() async throws {
        let receiver = WebhookReceiver()
        await receiver.answer(.failOnly(["evt_1"]))
        try await receiver.application().test(.live) { receiverClient in
            let port = try #require(receiverClient.port)
            let feeds = Feeds()
            let clock = TestClock()
            let retry = WebhookRetryPolicy(maxAttempts: 3)
            try await makeIntegrationApp(try .inMemory(), presence: Self.rules, retry: retry, feeds: feeds, clock: clock).test(.live) { client in
                let hook = try await client.expect(
                    .created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(port)/hook"), as: CreatedWebhook.self
                )
                let world = try await PresenceWorld.make(client)
                _ = try await world.post(Self.hallThenOffice, with: client)
                await feeds.webhookAttempts.wait(untilAbove: 0)
                await clock.advance(by: .seconds(1) + .milliseconds(1))
                await feeds.webhookAttempts.wait(untilAbove: 1)
                await clock.advance(by: .seconds(2) + .milliseconds(1))
                await receiver.waitForAccepted(3)
                #expect(await receiver.accepted.map(\.id) == ["evt_2", "evt_3", "evt_4"])

                let dead = try await client.expect(
                    .ok, get: "/v1/webhooks/\(hook.webhook.id)/deliveries?state=dead", as: Page<WebhookDelivery>.self
                ).items
                #expect(dead.map(\.eventID) == [1])
                #expect(dead.first?.attempts == 3 && dead.first?.lastStatus == 503 && dead.first?.lastError == "answered 503")
                let status = try await client.expect(.ok, get: "/v1/integrations/webhooks", as: WebhookIntegrationStatus.self)
                #expect(status.webhooks.map(\.deliveries) == [WebhookDeliveryCounts(pending: 0, delivered: 3, dead: 1)])
                #expect(status.recentFailures.map(\.eventID) == [1])
            }
        }
    }

    @Test func redirectsAreNotFollowedAndAnUnreachableReceiverIsRecorded() async throws {
        let receiver = WebhookReceiver()
        try await receiver.application().test(.live) { receiverClient in
            let port = try #require(receiverClient.port)
            await receiver.answer(.redirect("http://127.0.0.1:\(port)/elsewhere"))
            let feeds = Feeds()
            let retry = WebhookRetryPolicy(maxAttempts: 1)
            let rules = PresenceRules(dwell: .zero, awayAfter: .seconds(3600))
            try await makeIntegrationApp(try .inMemory(), presence: rules, retry: retry, feeds: feeds, clock: TestClock()).test(.live) { client in
                let redirected = try await client.expect(
                    .created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(port)/hook", events: [.entered]),
                    as: CreatedWebhook.self
                )
                // Port 1 on loopback: nothing listens there, the connection is refused.
                let unreachable = try await client.expect(
                    .created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:1/hook", events: [.entered]), as: CreatedWebhook.self
                )
                let world = try await PresenceWorld.make(client)
                _ = try await world.post([RecordedPosition(t: 0, room: nil, x: 2, y: 3)], with: client)
                await feeds.webhookAttempts.wait(untilAbove: 1)
                #expect(await receiver.requests.map(\.path) == ["hook"], "the redirect's target is never called")
                let redirectedDelivery = try await client.expect(
                    .ok, get: "/v1/webhooks/\(redirected.webhook.id)/deliveries", as: Page<WebhookDelivery>.self
                ).items
                #expect(redirectedDelivery.map(\.state) == [.dead] && redirectedDelivery.first?.lastStatus == 307)
                let unreachableDelivery = try await client.expect(
                    .ok, get: "/v1/webhooks/\(unreachable.webhook.id)/deliveries", as: Page<WebhookDelivery>.self
                ).items
                #expect(unreachableDelivery.map(\.state) == [.dead] && unreachableDelivery.first?.lastStatus == nil)
                #expect(unreachableDelivery.first?.lastError?.hasPrefix("no answer") == true)
            }
        }
    }
}
