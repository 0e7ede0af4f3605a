import Clocks
import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Presence events derived by a running switchd from the positions posted to it, served by
/// `/v1/events` and its stream; the `away` timer driven by a ``TestClock``.
@Suite(.timeLimit(.minutes(1))) struct PresenceEventTests {
    @Test func theWobblingStreamPostedToSwitchdGivesFourEventsInPages() async throws {
        let feeds = Feeds()
        try await makeIntegrationApp(try .inMemory(), feeds: feeds, clock: TestClock()).test(.live) { client in
            let world = try await PresenceWorld.make(client)
            let stored = try await world.post(try RecordedPosition.stream("doorway-wobble"), with: client)
            await feeds.presenceHasRead(try #require(stored.last).id)

            let first = try await client.expect(.ok, get: "/v1/events?limit=3", as: Page<PresenceEvent>.self)
            let cursor = try #require(first.nextCursor)
            let rest = try await client.expect(.ok, get: "/v1/events?limit=3&cursor=\(cursor)", as: Page<PresenceEvent>.self)
            #expect(rest.nextCursor == nil)
            let events = first.items + rest.items
            #expect(events.map(\.id) == [1, 2, 3, 4])
            #expect(events.map(\.kind) == [.entered, .entered, .left, .entered])
            #expect(events.map(\.roomID) == [nil, world.hall.id, world.hall.id, world.office.id])
            #expect(events[3].positionID == stored[39].id && events[3].time == stored[39].time)

            let left = try await client.expect(.ok, get: "/v1/events?kind=left&scannerID=default", as: Page<PresenceEvent>.self)
            #expect(left.items.map(\.id) == [3])
            let refused = try await client.get("/v1/events?kind=arrived")
            #expect(refused.status == .unprocessableContent)
            #expect(try errorBody(refused).field == "kind")
        }
    }

    @Test func aStreamThatStopsGivesOneAwayAtTheConfiguredTimeThenBack() async throws {
        let feeds = Feeds()
        let clock = TestClock()
        let awayAfter = Duration.seconds(90)
        let rules = PresenceRules(dwell: .seconds(5), awayAfter: awayAfter)
        try await makeIntegrationApp(try .inMemory(), presence: rules, feeds: feeds, clock: clock).test(.live) { client in
            let world = try await PresenceWorld.make(client)
            let stored = try await world.post(try RecordedPosition.stream("stops"), with: client)
            let last = try #require(stored.last)
            await feeds.presenceHasRead(last.id)
            let settled = try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
            #expect(settled.map(\.kind) == [.entered, .entered])

            // The deadline is fixed when the last position is read; a little past it, away.
            await clock.advance(by: awayAfter + .milliseconds(1))
            await feeds.events.waitForRows(after: try #require(settled.last).id)
            let afterSilence = try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
            #expect(Array(afterSilence.dropFirst(2).map(\.kind)) == [.left, .left, .away])
            let away = try #require(afterSilence.last)
            #expect(away.time == last.time.addingTimeInterval(90), "at the configured time after the last position")

            // Much more silence: still the one away. The next position is back.
            await clock.advance(by: awayAfter * 10)
            let again = try await client.expect(
                .created, .post, "/v1/positions", json: world.new(RecordedPosition(t: 3600, room: "hall", x: 2, y: 3)), as: Position.self
            )
            await feeds.presenceHasRead(again.id)
            let all = try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
            #expect(all.filter { $0.kind == .away }.count == 1)
            #expect(Array(all.dropFirst(5).map(\.kind)) == [.back])
            #expect(all.last?.positionID == again.id)
        }
    }

    @Test func theEventStreamResumesAfterLastEventIDThenGoesLive() async throws {
        let feeds = Feeds()
        let rules = PresenceRules(dwell: .zero, awayAfter: .seconds(120))
        try await makeIntegrationApp(try .inMemory(), presence: rules, feeds: feeds, clock: TestClock()).test(.live) { client in
            let port = try #require(client.port)
            let world = try await PresenceWorld.make(client)
            // Hall, then office: entered floor (1), entered hall (2), left hall (3), entered office (4).
            let posted = try await world.post([RecordedPosition(t: 0, room: "hall", x: 2, y: 3), RecordedPosition(t: 2, room: "office", x: 7, y: 3)], with: client)
            await feeds.presenceHasRead(posted[1].id)

            let events = try await withEventStream(port: port, path: "/v1/events/stream", headers: ["Last-Event-ID": "2"]) { reader in
                #expect(try await reader.status() == 200)
                var events = [try #require(try await reader.nextEvent()), try #require(try await reader.nextEvent())]
                _ = try await world.post([RecordedPosition(t: 4, room: nil, x: 5, y: 6)], with: client)
                events.append(try #require(try await reader.nextEvent()))
                return events
            }
            #expect(events.map(\.id) == ["3", "4", "5"])
            #expect(events.allSatisfy { $0.event == "presence" })
            let decoded = try events.map { try JSONCoding.decoder().decode(PresenceEvent.self, from: Data($0.data.utf8)) }
            #expect(decoded.map(\.kind) == [.left, .entered, .left])
            #expect(decoded.map(\.roomID) == [world.hall.id, world.office.id, world.office.id])
        }
    }

    @Test func followingTheEventFeedInProcessSeesEveryEventInOrder() async throws {
        let feeds = Feeds()
        let database = try AppDatabase.inMemory()
        let rules = PresenceRules(dwell: .zero, awayAfter: .seconds(120))
        try await makeIntegrationApp(database, presence: rules, feeds: feeds, clock: TestClock()).test(.live) { client in
            let world = try await PresenceWorld.make(client)
            var followed = database.presenceEventSource(matching: PresenceEventFilter(), feed: feeds.events).follow(after: 0).makeAsyncIterator()
            _ = try await world.post([RecordedPosition(t: 0, room: "hall", x: 2, y: 3)], with: client)
            var seen = [try #require(try await followed.next()), try #require(try await followed.next())]
            _ = try await world.post([RecordedPosition(t: 2, room: "office", x: 7, y: 3)], with: client)
            seen += [try #require(try await followed.next()), try #require(try await followed.next())]
            #expect(seen.map(\.id) == [1, 2, 3, 4])
            #expect(seen.map(\.kind) == [.entered, .entered, .left, .entered])
        }
    }
}
