import Foundation
import Harness
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `POST /v1/locate` costs CPU by the reading: a request carries at most `--max-locate-readings`
/// (422 above it), and a token may have at most `--locate-readings-per-minute` located (429 with
/// `Retry-After` beyond it, refilling with time).
@Suite struct LocateBudgetTests {
    static let limits = Limits(maxLocateReadings: 4, locateReadingsPerMinute: 6)

    /// `count` readings of one scan, loud on access point 1.
    static func scan(_ count: Int) -> LocateRequest {
        LocateRequest(measurements: (0..<count).map { LocateTests.reading(UInt64(1 + $0 % 2), rssi: $0 % 2 == 0 ? -42 : -79, scan: $0 / 2) })
    }

    @Test func aTokenThatSpentItsMinuteWaitsForItToRefillWhileOthersLocate() async throws {
        let clock = ManualClock()
        let database = try AppDatabase.inMemory()
        let reader = try await issueToken(database, .reader)
        let other = try await issueToken(database, .reader)
        try await makeApp(database, clock: clock, limits: Self.limits).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await LocateTests.survey(client, world)
            func post(_ request: LocateRequest, _ token: String) async throws -> TestResponse {
                var headers = bearer(token)
                headers[.contentType] = "application/json"
                return try await client.execute(uri: "/v1/locate", method: .post, headers: headers, body: jsonBody(request))
            }
            #expect(try await post(Self.scan(4), reader).status == .ok)
            let refused = try await post(Self.scan(4), reader)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "20", "2 readings short at 6 a minute")
            #expect(try errorBody(refused).message.contains("locate-readings-per-minute"))
            #expect(try await post(Self.scan(2), reader).status == .ok, "what is left may be spent")
            #expect(try await post(Self.scan(4), other).status == .ok, "each token has its own budget")

            clock.advance(by: .seconds(39))
            #expect(try await post(Self.scan(4), reader).status == .tooManyRequests)
            clock.advance(by: .seconds(1))
            #expect(try await post(Self.scan(4), reader).status == .ok, "40 s refilled 4 readings")
        }
    }

    @Test func moreReadingsThanMaxLocateReadingsAreRefusedNamingTheField() async throws {
        try await makeApp(try .inMemory(), limits: Self.limits).test(.router) { client in
            let refused = try await client.send(.post, "/v1/locate", json: Self.scan(5))
            #expect(refused.status == .unprocessableContent)
            let error = try errorBody(refused)
            #expect(error.field == "measurements" && error.message.contains("at most 4"), "\(error.message)")
        }
    }

    @Test func theBudgetTracksABoundedNumberOfTokens() {
        let clock = ManualClock()
        let budget = LocateBudget(perMinute: 10, capacity: 3, clock: clock)
        for token in 1...3 {
            #expect(budget.spend(10, by: Int64(token)) == nil)
            clock.advance(by: .seconds(1))
        }
        #expect(budget.spend(1, by: 4) == nil)
        #expect(budget.tokenCount == 3, "the least recently used is forgotten")
        #expect(budget.spend(10, by: 2) != nil, "a token still owing is remembered")
        #expect(budget.spend(10, by: 1) == nil, "the forgotten one starts afresh")
    }
}
