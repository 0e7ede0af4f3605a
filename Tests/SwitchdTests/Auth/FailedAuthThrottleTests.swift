import Foundation
import Harness
import Hummingbird
import HummingbirdTesting
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Failed authentications cost something: after N in a window an address's failed attempts get
/// 429 with `Retry-After` until the window ends, while its requests with an active token are
/// served; each failure is logged without the token and counted.
@Suite("Access: failed authentications are throttled")
struct FailedAuthThrottleTests {
    static let policy = FailedAuthThrottle.Policy(maxFailures: 3, window: .seconds(60), capacity: 100)

    @Test func anAddressFailingTooOftenGets429WithRetryAfterForItsFailuresUntilItsWindowEnds() async throws {
        let clock = ManualClock()
        let throttle = FailedAuthThrottle(policy: Self.policy, clock: clock)
        let metrics = SwitchdMetrics()
        let sink = TokenLoggingTests.LogLines()
        let logger = Logger(label: "switchd-tests") { _ in TokenLoggingTests.CollectingHandler(sink: sink) }
        let database = try AppDatabase.inMemory()
        let admin = try await issueToken(database, .admin)
        let wrong = BearerToken.generate().secret
        try await makeUnauthenticatedApp(database, logger: logger, metrics: metrics, authThrottle: throttle).test(.router) { client in
            for _ in 1...Self.policy.maxFailures {
                #expect(try await client.get("/v1/floors", headers: bearer(wrong)).status == .unauthorized)
            }
            #expect(try await client.get("/v1/floors", headers: bearer(admin)).status == .ok, "an active token is served")
            let refused = try await client.get("/v1/floors", headers: bearer(wrong))
            #expect(refused.status == .tooManyRequests, "a failed attempt from a throttled address")
            #expect(refused.headers[.retryAfter] == "60")
            #expect(try errorBody(refused).code == "too_many_requests")
            #expect(try await client.get("/healthz").status == .ok, "open routes stay open")

            clock.advance(by: .seconds(45))
            let later = try await client.get("/v1/floors", headers: bearer(wrong))
            #expect(later.status == .tooManyRequests)
            #expect(later.headers[.retryAfter] == "15")

            clock.advance(by: .seconds(15))
            #expect(try await client.get("/v1/floors", headers: bearer(admin)).status == .ok, "the window has ended")
            #expect(try await client.get("/v1/floors", headers: bearer(wrong)).status == .unauthorized, "a new window starts")
        }
        let samples = PrometheusSamples(String(decoding: metrics.render(), as: UTF8.self))
        #expect(samples[#"switchd_auth_failures_total{reason="unknown_token"}"#] == 4)
        #expect(samples["switchd_auth_throttled_total"] == 2)
        let failures = sink.all.filter { $0.contains("Authentication failed") }
        #expect(failures.count == 4, "one line per failure: \(failures)")
        #expect(failures.contains { $0.contains("throttled") })
        #expect(!sink.all.contains { $0.contains(wrong) || $0.contains(admin) }, "no token in any log line")
    }

    @Test func aMalformedAuthorizationHeaderCountsAsAFailure() async throws {
        let throttle = FailedAuthThrottle(policy: Self.policy, clock: ManualClock())
        try await makeUnauthenticatedApp(try .inMemory(), authThrottle: throttle).test(.router) { client in
            for _ in 1...Self.policy.maxFailures {
                let status = try await client.get("/v1/floors", headers: [.authorization: "Basic YWRtaW46YWRtaW4="]).status
                #expect(status == .unauthorized)
            }
            let status = try await client.get("/v1/floors", headers: [.authorization: "Basic YWRtaW46YWRtaW4="]).status
            #expect(status == .tooManyRequests)
        }
    }

    /// The case behind a NAT, proxy or guest Wi-Fi: ten bad tokens a minute from the address a
    /// building's scanner uploads and long-polls from. Before, every request from it got 429 for
    /// the rest of the minute; the scanner's own requests must keep going through.
    @Test func guessesFromTheAddressAScannerSharesNeverStopTheScanner() async throws {
        let clock = ManualClock()
        let throttle = FailedAuthThrottle(policy: .standard, clock: clock)
        let database = try AppDatabase.inMemory()
        let (revision, scanner) = try await RememberedTokenTests.scanningWithAScannerToken(database)
        try await makeUnauthenticatedApp(database, authThrottle: throttle).test(.router) { client in
            for minute in 0..<3 {
                for _ in 0..<10 {
                    _ = try await client.get("/v1/floors", headers: bearer(BearerToken.generate().secret))
                }
                let guess = try await client.get("/v1/floors", headers: bearer(BearerToken.generate().secret))
                #expect(guess.status == .tooManyRequests, "minute \(minute): the guesser is slowed")
                let upload = try await client.execute(
                    uri: "/v1/measurements", method: .post, headers: bearer(scanner),
                    body: try jsonBody(Readings.batch([Readings.wifi(), Readings.ble()], revision: revision))
                )
                #expect(upload.status == .created, "minute \(minute): the scanner's upload")
                let poll = try await client.get("/v1/scanners/default/switch", headers: bearer(scanner))
                #expect(poll.status == .ok, "minute \(minute): the scanner's switch")
                clock.advance(by: .seconds(60))
            }
        }
        #expect(try await StoredCounts(database).batches == 3)
    }

    @Test func aRequestWithoutATokenIsNotAFailure() async throws {
        let throttle = FailedAuthThrottle(policy: Self.policy, clock: ManualClock())
        try await makeUnauthenticatedApp(try .inMemory(), authThrottle: throttle).test(.router) { client in
            for _ in 1...(Self.policy.maxFailures * 2) {
                let status = try await client.get("/v1/floors").status
                #expect(status == .unauthorized)
            }
        }
    }

    @Test func theTableHoldsAtMostItsCapacityOfAddresses() {
        let clock = ManualClock()
        let throttle = FailedAuthThrottle(policy: .init(maxFailures: 2, window: .seconds(60), capacity: 4), clock: clock)
        for address in 1...50 {
            _ = throttle.recordFailure(from: "10.0.0.\(address)")
            clock.advance(by: .milliseconds(10))
        }
        #expect(throttle.addressCount == 4)
        #expect(throttle.recordFailure(from: "10.0.0.50") == .throttled(retryAfter: .seconds(60) - .milliseconds(10)),
                "the newest addresses are the ones kept")
    }
}
