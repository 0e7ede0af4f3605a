import Foundation
import GRDB
import Harness
import Hummingbird
import HummingbirdTesting
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// Adding a Pi in one step: a one-time code made by an admin is traded, once, for that scanner's
/// token; used, expired, wrong and throttled codes issue nothing.
@Suite("Scanners: enrolment by one-time code")
struct EnrolmentTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let pin = "sha256//q5Fh0ZBHYXhBcAFaJuvQyOG4dTFoEvFUvkGRlTsyxlM="

    struct Site {
        let database: AppDatabase
        let wall = SetWallClock(EnrolmentTests.start)
        let sink = TokenLoggingTests.LogLines()
        let throttle: FailedAuthThrottle
        let clock = ManualClock()

        init(maxFailures: Int = 10) throws {
            database = try .inMemory()
            throttle = FailedAuthThrottle(policy: .init(maxFailures: maxFailures, window: .seconds(60), capacity: 100), clock: clock)
        }

        func app() -> AdminByDefault<some ApplicationProtocol> {
            let sink = sink
            let logger = Logger(label: "switchd-tests") { _ in TokenLoggingTests.CollectingHandler(sink: sink) }
            return AdminByDefault(base: buildApplication(SwitchdDependencies(
                settings: Settings(host: "127.0.0.1", port: 0), database: database, logger: logger, authThrottle: throttle,
                wallClock: wall.wallClock, tlsPin: EnrolmentTests.pin
            )), database: database)
        }

        func tokenCount() async throws -> Int {
            try await database.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM token") ?? 0 }
        }
    }

    @Test func aCodeRegistersItsScannerAndIsTradedOnceForThatScannersToken() async throws {
        let site = try Site()
        try await site.app().test(.router) { client in
            let made = try await client.expect(
                .created, .post, "/v1/enrolments", json: NewEnrolmentCode(scannerID: try ScannerID("pi-hall"), name: "Hall Pi"), as: EnrolmentCode.self
            )
            #expect(made.scannerRegistered && made.scannerID.rawValue == "pi-hall" && made.pin == Self.pin)
            #expect(made.expires == Self.start.addingTimeInterval(900), "15 minutes unless asked")
            #expect(made.code.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/) != nil, "\(made.code)")
            let scanner = try await client.expect(.ok, get: "/v1/scanners/pi-hall", as: ScanContract.Scanner.self)
            #expect(scanner.name == "Hall Pi")

            // Typed as a person might: lower case, no dashes, an O for a 0.
            let typed = made.code.replacingOccurrences(of: "-", with: "").lowercased().replacingOccurrences(of: "0", with: "o")
            // No valid token: the code is the credential (a token switchd does not know is not even looked at).
            let answer = try await client.execute(
                uri: "/v1/enrol", method: .post, headers: [.authorization: "Bearer not-a-token", .contentType: "application/json"],
                body: jsonBody(EnrolmentRequest(code: typed))
            )
            #expect(answer.status == .created)
            let enrolled = try decoded(Enrolment.self, answer)
            #expect(enrolled.scannerID.rawValue == "pi-hall" && enrolled.token.hasPrefix(BearerToken.prefix))
            #expect(try await client.get("/v1/scanners/pi-hall/switch", headers: bearer(enrolled.token)).status == .ok, "the token speaks for pi-hall")
            #expect(try await client.get("/v1/scanners/default/switch", headers: bearer(enrolled.token)).status == .forbidden, "and for no other")

            let tokens = try await site.tokenCount()
            let again = try await client.send(.post, "/v1/enrol", json: EnrolmentRequest(code: made.code))
            #expect(again.status == .forbidden)
            #expect(try errorBody(again).code == "enrolment_refused")
            let usedMessage = try errorBody(again).message
            #expect(usedMessage.contains("was used at"), "\(usedMessage)")
            #expect(try await site.tokenCount() == tokens, "a used code issues nothing")

            // The code is kept only as its hash and never logged; the token is never logged either.
            let bare = made.code.replacingOccurrences(of: "-", with: "")
            let stored = try await site.database.writer.read { db in
                try Row.fetchAll(db, sql: "SELECT hash, scanner_id, name FROM enrolment_code").map { row -> ([UInt8], String) in
                    let hash: Data = row["hash"]
                    return (Array(hash), "\(row["scanner_id"] as String? ?? "") \(row["name"] as String? ?? "")")
                }
            }
            #expect(stored.map(\.0) == [EnrolmentController.hash(bare)], "the SHA-256 of the normalised code, nothing else")
            #expect(!stored.contains { $0.1.contains(bare) || $0.1.contains(made.code) })
            #expect(!site.sink.all.contains { $0.contains(bare) || $0.contains(made.code) || $0.contains(enrolled.token) }, "\(site.sink.all)")
            #expect(site.sink.all.contains { $0.contains("Scanner enrolled") })
        }
    }

    @Test func aCodeForARegisteredScannerKeepsItAndAnExpiredCodeIssuesNothing() async throws {
        let site = try Site()
        try await site.app().test(.router) { client in
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("pi-door")), as: ScanContract.Scanner.self)
            let made = try await client.expect(
                .created, .post, "/v1/enrolments", json: NewEnrolmentCode(scannerID: try ScannerID("pi-door"), expiresInSeconds: 60), as: EnrolmentCode.self
            )
            #expect(!made.scannerRegistered)
            let tokens = try await site.tokenCount()
            site.wall.set(Self.start.addingTimeInterval(60))
            let late = try await client.send(.post, "/v1/enrol", json: EnrolmentRequest(code: made.code))
            #expect(late.status == .forbidden)
            let lateMessage = try errorBody(late).message
            #expect(lateMessage.contains("expired at"), "\(lateMessage)")
            #expect(try await site.tokenCount() == tokens)

            // A scanner deleted after its code was made: the code issues nothing either.
            site.wall.set(Self.start)
            let other = try await client.expect(
                .created, .post, "/v1/enrolments", json: NewEnrolmentCode(scannerID: try ScannerID("pi-gone")), as: EnrolmentCode.self
            )
            #expect(try await client.execute(uri: "/v1/scanners/pi-gone", method: .delete).status == .noContent)
            let gone = try await client.send(.post, "/v1/enrol", json: EnrolmentRequest(code: other.code))
            #expect(gone.status == .forbidden)
            #expect(try errorBody(gone).message.contains("no such enrolment code"), "deleting the scanner deleted its unused codes")
            // Registered again, the ID is a new scanner: the old code does not enrol it.
            _ = try await client.expect(.created, .post, "/v1/scanners", json: NewScanner(id: try ScannerID("pi-gone")), as: ScanContract.Scanner.self)
            #expect(try await client.send(.post, "/v1/enrol", json: EnrolmentRequest(code: other.code)).status == .forbidden)
            #expect(try await site.tokenCount() == tokens)
        }
    }

    @Test func badRequestsAreToldWhatIsWrong() async throws {
        let site = try Site()
        try await site.app().test(.router) { client in
            let short = try await client.send(.post, "/v1/enrolments", text: #"{"scannerID": "pi-a", "expiresInSeconds": 10}"#)
            #expect(short.status == .unprocessableContent)
            #expect(try errorBody(short).field == "expiresInSeconds")
            let badID = try await client.send(.post, "/v1/enrolments", text: #"{"scannerID": "pi a/b"}"#)
            #expect(badID.status == .unprocessableContent)
            #expect(try errorBody(badID).field == "scannerID")
            let notACode = try await client.send(.post, "/v1/enrol", json: EnrolmentRequest(code: "12345"))
            #expect(notACode.status == .unprocessableContent)
            #expect(try errorBody(notACode).field == "code")
            #expect(try await client.send(.post, "/v1/enrol", text: "{}").status == .unprocessableContent)
            #expect(try await client.execute(uri: "/v1/enrol", method: .get).status == .methodNotAllowed)
            #expect(try await site.tokenCount() == 1, "only the tests' admin token")
        }
    }

    @Test func wrongCodesAreThrottledPerAddressThenEveryCodeWaitsForTheWindow() async throws {
        let site = try Site(maxFailures: 3)
        try await site.app().test(.router) { client in
            let made = try await client.expect(
                .created, .post, "/v1/enrolments", json: NewEnrolmentCode(scannerID: try ScannerID("pi-x")), as: EnrolmentCode.self
            )
            let wrong = EnrolmentRequest(code: made.code.first == "A" ? "B" + made.code.dropFirst() : "A" + made.code.dropFirst())
            for _ in 1...3 {
                #expect(try await client.send(.post, "/v1/enrol", json: wrong).status == .forbidden)
            }
            let throttled = try await client.send(.post, "/v1/enrol", json: EnrolmentRequest(code: made.code))
            #expect(throttled.status == .tooManyRequests, "while throttled, no code is even tried")
            #expect(throttled.headers[.retryAfter] == "60")
            site.clock.advance(by: .seconds(60))
            #expect(try await client.send(.post, "/v1/enrol", json: EnrolmentRequest(code: made.code)).status == .created, "the window ended")
        }
    }
}
