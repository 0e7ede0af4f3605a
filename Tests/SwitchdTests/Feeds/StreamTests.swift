import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ScanContract
import ServiceLifecycle
import Testing
@testable import switchd
@testable import SwitchdStore

/// Server-sent events over a real loopback connection, read as they arrive.
@Suite(.timeLimit(.minutes(1))) struct StreamTests {
    @Test func measurementStreamResumesAfterLastEventIDThenGoesLive() async throws {
        try await makeApp(try .inMemory()).test(.live) { client in
            let port = try #require(client.port)
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            let earlier = [Readings.wifi(scan: 0), Readings.ble(scan: 0), Readings.wifi(scan: 1)]
            _ = try await client.uploadNew(Readings.batch(Array(earlier[0..<2]), revision: on.revision))
            _ = try await client.uploadNew(Readings.batch([earlier[2], Readings.ble(scan: 1)], revision: on.revision))
            let later = [Readings.wifi(scan: 2), Readings.ble(scan: 2)]

            let events = try await withEventStream(port: port, path: "/v1/measurements/stream", headers: ["Last-Event-ID": "2"]) { reader in
                #expect(try await reader.status() == 200)
                var events: [ServerSentEvent] = []
                for _ in 0..<2 {
                    events.append(try #require(try await reader.nextEvent()))
                }
                _ = try await client.uploadNew(Readings.batch(later, revision: on.revision))
                for _ in 0..<2 {
                    events.append(try #require(try await reader.nextEvent()))
                }
                return events
            }
            #expect(events.map(\.id) == ["3", "4", "5", "6"])
            #expect(events.allSatisfy { $0.event == "measurement" })
            let stored = try events.map { try JSONCoding.decoder().decode(StoredMeasurement.self, from: Data($0.data.utf8)) }
            #expect(stored.map { String($0.sequence) } == events.map(\.id))
            #expect(stored.map(\.measurement)[0] == earlier[2])
            #expect(Array(stored.map(\.measurement)[2...]) == later)
            #expect(stored.allSatisfy { $0.locationID == spot.location.id })
        }
    }

    @Test func measurementStreamFiltersAndStartsFromNowWithoutResumePoint() async throws {
        try await makeApp(try .inMemory()).test(.live) { client in
            let port = try #require(client.port)
            let spot = try await SurveySpot.make(client)
            let on = try await client.startSurvey(at: spot.location.id)
            _ = try await client.uploadNew(Readings.batch([Readings.ble(), Readings.wifi()], revision: on.revision))

            let fresh = Readings.ble(scan: 1, rssi: -33)
            let event = try await withEventStream(port: port, path: "/v1/measurements/stream?kind=ble") { reader in
                #expect(try await reader.status() == 200)
                _ = try await client.uploadNew(Readings.batch([Readings.wifi(scan: 1), fresh], revision: on.revision))
                return try #require(try await reader.nextEvent())
            }
            #expect(event.id == "4", "old readings and other kinds are not sent")
            #expect(try JSONCoding.decoder().decode(StoredMeasurement.self, from: Data(event.data.utf8)).measurement == fresh)

            let resumed = try await withEventStream(port: port, path: "/v1/measurements/stream?after=0&kind=wifi") { reader in
                #expect(try await reader.status() == 200)
                return [try #require(try await reader.nextEvent()), try #require(try await reader.nextEvent())]
            }
            #expect(resumed.map(\.id) == ["2", "3"])
        }
    }

    @Test func switchStreamSendsTheCurrentStateThenEachNewRevision() async throws {
        try await makeApp(try .inMemory()).test(.live) { client in
            let port = try #require(client.port)
            let events = try await withEventStream(port: port, path: "/v1/scanners/default/switch/stream") { reader in
                #expect(try await reader.status() == 200)
                var events = [try #require(try await reader.nextEvent())]
                _ = try await client.patchSwitch(SwitchPatch(scanning: true))
                events.append(try #require(try await reader.nextEvent()))
                _ = try await client.patchSwitch(SwitchPatch(scanning: true))
                _ = try await client.patchSwitch(SwitchPatch(scanning: false))
                events.append(try #require(try await reader.nextEvent()))
                return events
            }
            #expect(events.map(\.id) == ["1", "2", "3"], "an idempotent PATCH sends no event")
            #expect(events.allSatisfy { $0.event == "switch" })
            let states = try events.map { try JSONCoding.decoder().decode(ScanSwitch.self, from: Data($0.data.utf8)) }
            #expect(states.map(\.scanning) == [false, true, false])
            #expect(try await client.get("/v1/scanners/nobody/switch/stream").status == .notFound)
        }
    }

    @Test func gracefulShutdownEndsOpenStreams() async throws {
        var logger = Logger(label: "switchd-tests")
        logger.logLevel = .critical
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let database = try AppDatabase.inMemory()
        let token = try await issueToken(database, .reader)
        let app = buildApplication(SwitchdDependencies(settings: Settings(host: "127.0.0.1", port: 0), database: database, logger: logger) { port in
            portContinuation.yield(port)
        })
        let serviceGroup = ServiceGroup(configuration: .init(services: [app], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await serviceGroup.run() }
            var portIterator = ports.makeAsyncIterator()
            let port = try #require(await portIterator.next())
            let leftovers = try await withEventStream(
                port: port, path: "/v1/scanners/default/switch/stream", headers: ["Authorization": "Bearer \(token)"]
            ) { reader in
                #expect(try await reader.status() == 200)
                #expect(try await reader.nextEvent()?.id == "1")
                await serviceGroup.triggerGracefulShutdown()
                var leftovers: [StreamPart] = []
                while let part = try await reader.next() {
                    leftovers.append(part)
                }
                return leftovers
            }
            #expect(leftovers.isEmpty, "the stream ends cleanly instead of holding shutdown")
            try await tasks.waitForAll()
        }
    }
}
