import Clocks
import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `DELETE /v1/scanners/{id}` over HTTP on loopback, on real SQLite files: what goes with a
/// scanner, what stays (its readings, so the radio map), and that a scanner registered again
/// under the ID is a new one.
@Suite(.timeLimit(.minutes(1)))
struct ScannerDeleteTests {
    static let retired = try! ScannerID("pi-retired")

    @Test func deletingAScannerKeepsItsReadingsAndTheRadioMap() async throws {
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database).test(.live) { client in
                let spot = try await SurveySpot.make(client)
                _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: Self.retired), as: ScanContract.Scanner.self)
                let survey = try await client.startSurvey(at: spot.location.id, scanner: Self.retired)
                let batch = Readings.batch([Readings.wifi(), Readings.ble()], revision: survey.revision, scanner: Self.retired)
                _ = try await client.uploadNew(batch)
                let last = try await client.patchSwitch(SwitchPatch(scanning: false), scanner: Self.retired)
                _ = try await client.expect(.created, .post, "/v1/positions", json: NewPosition(
                    scannerID: Self.retired, time: Date(), building: spot.floor.building, floor: spot.floor.id, x: 1, y: 2,
                    roomID: spot.room.id, nearestLocationID: nil, accuracyMetres: 1.5, method: "wifi-knn"
                ), as: Position.self)
                let counters = try await client.send(.put, "/v1/scanners/\(Self.retired)/counters", json: ScannerCounters(run: UUID(), advertisements: 5))
                #expect(counters.status == .noContent)
                #expect(String(buffer: try await client.get("/metrics").body).contains(#"scanner="pi-retired""#))
                let mapBefore = try await client.get("/v1/radiomap")
                let countsBefore = try await StoredCounts(database)

                #expect(try await client.execute(uri: "/v1/scanners/\(Self.retired)", method: .delete).status == .noContent)

                let mapAfter = try await client.get("/v1/radiomap")
                #expect(mapAfter.headers[.eTag] == mapBefore.headers[.eTag], "the survey did not change")
                #expect(mapAfter.body == mapBefore.body)
                let countsAfter = try await StoredCounts(database)
                #expect(countsAfter.measurements == countsBefore.measurements && countsAfter.batches == countsBefore.batches)
                #expect(countsAfter.scanners == countsBefore.scanners - 1)
                let readings = try await client.expect(.ok, get: "/v1/measurements?scanner=pi-retired", as: Page<StoredMeasurement>.self)
                #expect(readings.items.count == 2 && readings.items.allSatisfy { $0.scannerID == Self.retired && $0.locationID == spot.location.id })
                let positions = try await client.expect(.ok, get: "/v1/positions", as: Page<Position>.self)
                #expect(positions.items.isEmpty, "positions go with their scanner")
                let metrics = String(buffer: try await client.get("/metrics").body)
                #expect(!metrics.contains(#"scanner="pi-retired""#), "its scannerd_* series leave /metrics")
                #expect(try await client.get("/v1/scanners/pi-retired").status == .notFound)

                let again = try await client.execute(uri: "/v1/scanners/\(Self.retired)", method: .delete)
                #expect(again.status == .notFound)
                #expect(try errorBody(again).message.contains("pi-retired"))
                #expect(try await client.execute(uri: "/v1/scanners/nobody", method: .delete).status == .notFound)
                #expect(try await StoredCounts(database) == countsAfter, "a refused delete changes nothing")

                // Registered again: a new scanner, its revisions numbered on from the old one's.
                _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: Self.retired), as: ScanContract.Scanner.self)
                let fresh = try await client.expect(.ok, get: "/v1/scanners/pi-retired/switch", as: ScanSwitch.self)
                #expect(fresh.revision == last.revision + 1 && !fresh.scanning)
                let stale = try await client.upload(Readings.batch([Readings.wifi(scan: 3)], revision: survey.revision, scanner: Self.retired))
                #expect(stale.status == .unprocessableContent, "a revision of the deleted scanner is no revision of the new one")
                let resurvey = try await client.startSurvey(at: spot.location.id, scanner: Self.retired)
                _ = try await client.uploadNew(Readings.batch([Readings.wifi(scan: 4)], revision: resurvey.revision, scanner: Self.retired))
                #expect(try await StoredCounts(database).measurements == countsBefore.measurements + 1)
            }
        }
    }

    @Test func onlyAnAdminDeletesAndTheScannersTokensStopWorkingAtOnce() async throws {
        try await withTemporaryDatabase { database, _ in
            _ = try await database.createScanner(NewScanner(id: Self.retired), at: Date())
            let admin = try await issueToken(database, .admin)
            let reader = try await issueToken(database, .reader)
            let scanner = try await issueToken(database, .scanner, scannerID: Self.retired)
            try await makeUnauthenticatedApp(database).test(.live) { client in
                let uri = "/v1/scanners/\(Self.retired)"
                #expect(try await client.get(uri + "/switch", headers: bearer(scanner)).status == .ok)
                #expect(try await client.execute(uri: uri, method: .delete, headers: bearer(reader)).status == .forbidden)
                #expect(try await client.execute(uri: uri, method: .delete, headers: bearer(scanner)).status == .forbidden)
                #expect(try await client.execute(uri: uri, method: .delete).status == .unauthorized)

                #expect(try await client.execute(uri: uri, method: .delete, headers: bearer(admin)).status == .noContent)
                #expect(try await client.get(uri + "/switch", headers: bearer(scanner)).status == .unauthorized)
                let tokens = try await database.tokens().filter { $0.scannerID == Self.retired }
                #expect(tokens.count == 1 && tokens.allSatisfy { $0.revoked != nil }, "revoked, kept for the audit")

                // Back under the same ID with a new token: it works as any new scanner.
                _ = try await database.createScanner(NewScanner(id: Self.retired), at: Date())
                let renewed = try await issueToken(database, .scanner, scannerID: Self.retired)
                #expect(try await client.get(uri + "/switch", headers: bearer(renewed)).status == .ok)
                #expect(try await client.get(uri + "/switch", headers: bearer(scanner)).status == .unauthorized)
            }
        }
    }

    @Test func aHeldLongPollEndsWith404WhenItsScannerIsDeleted() async throws {
        let clock = WatchedClock()
        let database = try AppDatabase.inMemory()
        _ = try await database.createScanner(NewScanner(id: Self.retired), at: Date())
        // Through the router, as SwitchTests' long-polls: the live test client sends one request at a time.
        try await makeApp(database, clock: clock).test(.router) { client in
            async let polled = client.get("/v1/scanners/pi-retired/switch?revision=1&wait=20")
            await clock.sleepers(SwitchTests.longPollSleeping)
            #expect(try await client.execute(uri: "/v1/scanners/pi-retired", method: .delete).status == .noContent)
            // The clock never moves: the held request was ended by the delete, not timed out.
            let answer = try await polled
            #expect(answer.status == .notFound)
            #expect(try errorBody(answer).message.contains("deleted"))
        }
    }

    @Test func aSwitchStreamEndsWhenItsScannerIsDeleted() async throws {
        let database = try AppDatabase.inMemory()
        _ = try await database.createScanner(NewScanner(id: Self.retired), at: Date())
        try await makeApp(database).test(.live) { client in
            let port = try #require(client.port)
            let leftovers = try await withEventStream(port: port, path: "/v1/scanners/pi-retired/switch/stream") { reader in
                #expect(try await reader.status() == 200)
                #expect(try await reader.nextEvent()?.id == "1")
                #expect(try await client.execute(uri: "/v1/scanners/pi-retired", method: .delete).status == .noContent)
                var leftovers: [StreamPart] = []
                while let part = try await reader.next() {
                    leftovers.append(part)
                }
                return leftovers
            }
            #expect(leftovers.isEmpty, "the stream ends cleanly")
        }
    }

    /// The batches a deleted scanner uploaded stay, but are not contact with a scanner registered
    /// again under its ID: its last-seen time (MQTT's `last-seen` and availability) counts only
    /// batches received after its registration, also when read from the first batch on (a new
    /// broker connection or Home Assistant's birth message reads them all again).
    @Test func aScannerRegisteredAgainIsNotSeenByTheDeletedOnesBatches() async throws {
        let start = Readings.start
        try await withTemporaryDatabase { database, _ in
            _ = try await database.createScanner(NewScanner(id: Self.retired), at: start)
            let on = try await database.updateSwitch(of: Self.retired, with: SwitchPatch(scanning: true, storeData: true), at: start).scanSwitch
            _ = try await database.ingest(Readings.batch([Readings.wifi()], revision: on.revision, scanner: Self.retired), at: start.addingTimeInterval(10))
            #expect(try await database.lastBatchContacts(after: 0).contacts[Self.retired] == start.addingTimeInterval(10))
            _ = try await database.deleteScanner(Self.retired, at: start.addingTimeInterval(20), mqtt: nil)

            _ = try await database.createScanner(NewScanner(id: Self.retired), at: start.addingTimeInterval(30))
            let unheard = try await database.lastBatchContacts(after: 0)
            #expect(unheard.contacts[Self.retired] == nil, "the deleted scanner's batch is not the new one's contact")
            #expect(unheard.lastBatchID == 1, "its batch is read past all the same")

            let again = try await database.updateSwitch(of: Self.retired, with: SwitchPatch(scanning: true, storeData: true), at: start.addingTimeInterval(40)).scanSwitch
            _ = try await database.ingest(Readings.batch([Readings.wifi()], revision: again.revision, scanner: Self.retired), at: start.addingTimeInterval(50))
            #expect(try await database.lastBatchContacts(after: 0).contacts[Self.retired] == start.addingTimeInterval(50))
            #expect(try await database.lastBatchContacts(after: 1).contacts[Self.retired] == start.addingTimeInterval(50))
        }
    }

    /// A scanner deleted while its `away` deadline runs is never marked away (its presence state
    /// and events went with it); another scanner's deadline still gives its one `away`.
    @Test func aDeletedScannerIsNeverMarkedAway() async throws {
        let feeds = Feeds()
        let clock = TestClock()
        let awayAfter = Duration.seconds(90)
        let rules = PresenceRules(dwell: .seconds(5), awayAfter: awayAfter)
        try await makeIntegrationApp(try .inMemory(), presence: rules, feeds: feeds, clock: clock).test(.live) { client in
            let world = try await PresenceWorld.make(client)
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: Self.retired), as: ScanContract.Scanner.self)
            let stream = try RecordedPosition.stream("stops")
            _ = try await world.post(stream, with: client, scanner: Self.retired)
            let last = try #require(try await world.post(stream, with: client).last)
            await feeds.presenceHasRead(last.id)
            let settled = try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
            #expect(Set(settled.map(\.scannerID)) == [.default, Self.retired])

            #expect(try await client.execute(uri: "/v1/scanners/pi-retired", method: .delete).status == .noContent)
            await clock.advance(by: awayAfter + .milliseconds(1))
            await feeds.events.waitForRows(after: try #require(settled.last).id)
            let events = try await client.expect(.ok, get: "/v1/events", as: Page<PresenceEvent>.self).items
            #expect(events.allSatisfy { $0.scannerID == .default }, "the deleted scanner's events went with it, and no away came")
            #expect(events.filter { $0.kind == .away }.count == 1)
        }
    }
}
