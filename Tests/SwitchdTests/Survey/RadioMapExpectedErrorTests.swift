import Foundation
import Hummingbird
import HummingbirdTesting
import Positioning
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `GET /v1/radiomap` on a real SQLite file carries each surveyed location's expected error, once
/// the background estimate (``ExpectedErrorEstimates``) has finished; no request waits for it.
@Suite struct RadioMapExpectedErrorTests {
    static func expectedErrors(in response: TestResponse) throws -> [Int64: ExpectedError?] {
        let map = try JSONCoding.decoder().decode(RadioMap.self, from: Data(response.body.readableBytesView))
        return Dictionary(uniqueKeysWithValues: map.locations.map { ($0.locationID, $0.expectedError) })
    }

    /// Surveys A at `rssi` and B 30 dB weaker (two scans each), one batch per location.
    static func survey(_ client: some TestClientProtocol, _ locations: [Location], rssi: Int = -50) async throws {
        for (index, location) in locations.enumerated() {
            let survey = try await client.startSurvey(at: location.id)
            let level = rssi - 30 * index
            _ = try await client.uploadNew(Readings.batch(
                [Readings.wifi(scan: 0, rssi: level), Readings.wifi(scan: 1, rssi: level - 2)], revision: survey.revision))
        }
    }

    @Test func surveyedLocationsCarryTheirExpectedErrorAndOthersNone() async throws {
        let estimates = ExpectedErrorEstimates()
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database, expectedErrors: estimates).test(.router) { client in
                let world = try await PositioningWorld.make(client)
                // A (0, 0) and B (3, 4), both on the ground floor, hear the access point differently.
                try await Self.survey(client, [world.a, world.b])
                _ = try await client.get("/v1/radiomap")
                await estimates.settled()
                let response = try await client.get("/v1/radiomap")
                #expect(response.status == .ok)
                let errors = try Self.expectedErrors(in: response)
                #expect(errors.keys.sorted() == [world.a, world.b, world.c, world.d, world.e].map(\.id))
                #expect(errors.filter { $0.value != nil }.keys.sorted() == [world.a.id, world.b.id], "unsurveyed locations have none")
                // Without A only B is left to find A's scans at, and the other way round: 5 m off.
                for id in [world.a.id, world.b.id] {
                    let expected = try #require(errors[id] ?? nil)
                    #expect(expected.metres == 5 && expected.quantile == 0.68 && expected.samples == 2)
                }
            }
        }
    }

    @Test func theMapIsServedWithoutWaitingAndTheEstimateArrivesForTheNewestSurvey() async throws {
        let held = HeldEstimate()
        let estimates = ExpectedErrorEstimates(held)
        try await withTemporaryDatabase { database, _ in
            try await makeApp(database, expectedErrors: estimates).test(.router) { client in
                let world = try await PositioningWorld.make(client)
                try await Self.survey(client, [world.a, world.b])

                // The first estimate is held: the map comes at once, without expected errors.
                let plain = try await client.get("/v1/radiomap")
                #expect(plain.status == .ok)
                #expect(try Self.expectedErrors(in: plain).values.allSatisfy { $0 == nil })
                let plainTag = try #require(plain.headers[.eTag])
                await held.started(1)

                // Released: the same survey's map now carries it, under a new ETag.
                await held.release(1)
                await estimates.settled()
                let estimated = try await client.get("/v1/radiomap", headers: [.ifNoneMatch: plainTag])
                #expect(estimated.status == .ok)
                #expect(try Self.expectedErrors(in: estimated)[world.a.id]??.metres == 1)
                let estimatedTag = try #require(estimated.headers[.eTag])
                #expect(estimatedTag != plainTag)
                #expect(try await client.get("/v1/radiomap", headers: [.ifNoneMatch: estimatedTag]).status == .notModified)

                // One more batch at A moves the survey version but not the surveyed locations: while
                // the new estimate is held, the last one is served.
                try await Self.survey(client, [world.a], rssi: -52)
                let stale = try await client.get("/v1/radiomap")
                await held.started(2)
                #expect(try Self.expectedErrors(in: stale)[world.a.id]??.metres == 1)
                #expect(stale.headers[.eTag] != estimatedTag)

                // Surveying C changes the surveyed locations: no estimate fits until the newest lands.
                try await Self.survey(client, [world.c])
                let changed = try await client.get("/v1/radiomap")
                #expect(try Self.expectedErrors(in: changed).values.allSatisfy { $0 == nil })
                await held.release(2)
                await held.started(3)
                await held.release(3)
                await estimates.settled()
                // Call 2 (the survey before C) was superseded and dropped; call 3 rated the newest.
                let newest = try Self.expectedErrors(in: try await client.get("/v1/radiomap"))
                #expect(newest[world.a.id]??.metres == 3 && newest[world.c.id]??.metres == 3)
                #expect(await held.startedCount == 3)
            }
        }
    }
}
