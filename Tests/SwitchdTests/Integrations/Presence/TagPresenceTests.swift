import Clocks
import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// A tag's presence derived by a running switchd from recorded tag-position streams
/// (`Fixtures/presence/tag-*.jsonl`), as the window closer stores them: the same rules as a
/// scanner's, served on `/v1/events` with the tag and on `/v1/tags/{id}/events`, delivered to
/// webhooks that follow tags; the `away` timer driven by a ``TestClock``.
@Suite(.timeLimit(.minutes(1))) struct TagPresenceTests {
    static let rules = PresenceRules(dwell: .seconds(5), awayAfter: .seconds(120), tagAwayAfter: .seconds(30))

    /// Registers a badge through the API.
    static func badge(_ client: some TestClientProtocol) async throws -> ScanContract.Tag {
        try await client.expect(.created, .post, "/v1/tags", json: NewTag(name: "Visitor 12", identity: TagWorld.tagIdentity), as: ScanContract.Tag.self)
    }

    @Test func aBadgeWobblingAtADoorEntersTheOfficeOnceWithoutFlapping() async throws {
        let feeds = Feeds()
        let database = try AppDatabase.inMemory()
        try await makeIntegrationApp(database, presence: Self.rules, feeds: feeds, clock: TestClock()).test(.live) { client in
            let world = try await PresenceWorld.make(client)
            let tag = try await Self.badge(client)
            let stream = try RecordedPosition.stream("tag-doorway-wobble")
            let stored = try await world.store(stream, tag: tag.id, in: database, feeds: feeds)
            await feeds.presenceHasRead(tagPosition: try #require(stored.last).id)

            let first = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/events?limit=3", as: Page<PresenceEvent>.self)
            let rest = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/events?limit=3&cursor=\(try #require(first.nextCursor))", as: Page<PresenceEvent>.self)
            #expect(rest.nextCursor == nil)
            let events = first.items + rest.items
            #expect(events.map(\.kind) == [.entered, .entered, .left, .entered])
            #expect(events.map(\.place) == [.floor, .room, .room, .room])
            #expect(events.map(\.roomID) == [nil, world.hall.id, world.hall.id, world.office.id])
            #expect(events.allSatisfy { $0.tagID == tag.id && $0.scannerID == nil && $0.floor == world.floor.id })
            // The office is settled by the run that began in the doorway and lasted the dwell.
            let settling = try #require(stored.first { $0.time >= stored[54].time.addingTimeInterval(5) })
            #expect(events[3].positionID == settling.id && events[3].time == settling.time)
            #expect(try await client.expect(.ok, get: "/v1/events?tagID=\(tag.id)", as: Page<PresenceEvent>.self).items == events)
            #expect(try await client.expect(.ok, get: "/v1/tags/\(tag.id)/events?kind=left", as: Page<PresenceEvent>.self).items == [events[2]])
            #expect(try await client.expect(.ok, get: "/v1/events?scannerID=default", as: Page<PresenceEvent>.self).items.isEmpty)

            // Without the dwell the same stream flaps at every crossing.
            let flapping = Self.replay(stream, world: world, PresenceRules(dwell: .zero, awayAfter: .seconds(120)))
            #expect(flapping.filter { $0.kind == .entered && $0.place == .room }.count > 10)
        }
    }

    @Test func aTagThatGoesSilentIsAwayOnceAtItsTimeThenBack() async throws {
        let feeds = Feeds()
        let clock = TestClock()
        let database = try AppDatabase.inMemory()
        try await makeIntegrationApp(database, presence: Self.rules, feeds: feeds, clock: clock).test(.live) { client in
            let world = try await PresenceWorld.make(client)
            let tag = try await Self.badge(client)
            let silent = try await world.store(try RecordedPosition.stream("tag-goes-silent"), tag: tag.id, in: database, feeds: feeds)
            let last = try #require(silent.last)
            await feeds.presenceHasRead(tagPosition: last.id)
            let settled = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/events", as: Page<PresenceEvent>.self).items
            #expect(settled.map(\.kind) == [.entered, .entered])
            #expect(settled.last?.roomID == world.office.id)

            // The tag's own time (30 s), well before a scanner's (120 s), from when its last window was read.
            await clock.advance(by: .seconds(30) + .milliseconds(1))
            await feeds.events.waitForRows(after: try #require(settled.last).id)
            let afterSilence = try await client.expect(.ok, get: "/v1/tags/\(tag.id)/events", as: Page<PresenceEvent>.self).items
            #expect(Array(afterSilence.dropFirst(2).map(\.kind)) == [.left, .left, .away])
            let away = try #require(afterSilence.last)
            #expect(away.time == last.time.addingTimeInterval(30) && away.tagID == tag.id && away.scannerID == nil)

            // Much more silence: still the one away. Heard again ten minutes later: back, in the hall.
            await clock.advance(by: .seconds(600))
            let back = try await world.store(try RecordedPosition.stream("tag-comes-back"), tag: tag.id, in: database, feeds: feeds)
            await feeds.presenceHasRead(tagPosition: try #require(back.last).id)
            let all = try await client.expect(.ok, get: "/v1/events?tagID=\(tag.id)", as: Page<PresenceEvent>.self).items
            #expect(all.filter { $0.kind == .away }.count == 1)
            #expect(Array(all.dropFirst(5).map(\.kind)) == [.back, .entered, .entered])
            #expect(all[5].positionID == back[0].id && all[5].roomID == world.hall.id)
            #expect(all.last?.roomID == world.hall.id && all.last?.positionID == back[5].id)
        }
    }

    @Test func aTagsEventsStreamAndReachOnlyTheWebhooksThatFollowTags() async throws {
        let receiver = WebhookReceiver()
        try await receiver.application().test(.live) { receiverClient in
            let receiverPort = try #require(receiverClient.port)
            let feeds = Feeds()
            let database = try AppDatabase.inMemory()
            let rules = PresenceRules(dwell: .zero, awayAfter: .seconds(3600))
            try await makeIntegrationApp(database, presence: rules, feeds: feeds, clock: TestClock()).test(.live) { client in
                let port = try #require(client.port)
                let tags = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(
                    url: "http://127.0.0.1:\(receiverPort)/tags", events: [.entered], subjects: [.tags]
                ), as: CreatedWebhook.self)
                #expect(tags.webhook.subjects == [.tags])
                let scanners = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(
                    url: "http://127.0.0.1:\(receiverPort)/scanners", subjects: [.scanners]
                ), as: CreatedWebhook.self)
                let both = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(url: "http://127.0.0.1:\(receiverPort)/both"), as: CreatedWebhook.self)
                #expect(both.webhook.subjects == WebhookSubject.allCases)
                let refused = try await client.execute(
                    uri: "/v1/webhooks", method: .post, body: ByteBuffer(string: #"{"url": "http://127.0.0.1:9/x", "subjects": []}"#)
                )
                #expect(refused.status == .unprocessableContent)
                #expect(try errorBody(refused).field == "subjects")

                let world = try await PresenceWorld.make(client)
                let tag = try await Self.badge(client)
                let hall = try await world.store([RecordedPosition(t: 0, room: "hall", x: 2, y: 3)], tag: tag.id, in: database, feeds: feeds)
                let streamed = try await withEventStream(port: port, path: "/v1/tags/\(tag.id)/events/stream", headers: ["Last-Event-ID": "1"]) { reader in
                    #expect(try await reader.status() == 200)
                    var events = [try #require(try await reader.nextEvent())]
                    _ = try await world.store([RecordedPosition(t: 1, room: "office", x: 7, y: 3)], tag: tag.id, in: database, feeds: feeds)
                    events += [try #require(try await reader.nextEvent()), try #require(try await reader.nextEvent())]
                    return events
                }
                #expect(streamed.map(\.id) == ["2", "3", "4"] && streamed.allSatisfy { $0.event == "tagEvent" })
                let decoded = try streamed.map { try JSONCoding.decoder().decode(PresenceEvent.self, from: Data($0.data.utf8)) }
                #expect(decoded.map(\.kind) == [.entered, .left, .entered] && decoded.allSatisfy { $0.tagID == tag.id })
                #expect(decoded.first?.positionID == hall.first?.id)

                // Entered floor, entered hall, left hall, entered office: three entered to /tags, all four to /both.
                await receiver.waitForAccepted(7)
                let received = await receiver.accepted
                #expect(received.filter { $0.path == "tags" }.map(\.id) == ["evt_1", "evt_2", "evt_4"])
                #expect(received.filter { $0.path == "both" }.map(\.id) == ["evt_1", "evt_2", "evt_3", "evt_4"])
                #expect(!received.contains { $0.path == "scanners" })
                let payload = try #require(try received.first { $0.path == "tags" }?.payload())
                #expect(payload.type == "presence.entered" && payload.data.tagID == tag.id && payload.data.scannerID == nil)
                let deliveries = try await client.expect(.ok, get: "/v1/webhooks/\(tags.webhook.id)/deliveries", as: Page<WebhookDelivery>.self).items
                #expect(deliveries.allSatisfy { $0.tagID == tag.id && $0.scannerID == nil })
                #expect(try await client.expect(.ok, get: "/v1/webhooks/\(scanners.webhook.id)/deliveries", as: Page<WebhookDelivery>.self).items.isEmpty)
            }
        }
    }

    /// The events `rules` settle from `stream`, replayed without a server.
    static func replay(_ stream: [RecordedPosition], world: PresenceWorld, _ rules: PresenceRules) -> [NewPresenceEvent] {
        var state: PresenceState?
        var events: [NewPresenceEvent] = []
        for (index, recorded) in stream.enumerated() {
            var position = world.tagPosition(recorded, tag: 1)
            position.id = Int64(index + 1)
            let (next, settled) = rules.step(state, PresenceObservation(position))
            state = next
            events += settled
        }
        return events
    }
}
