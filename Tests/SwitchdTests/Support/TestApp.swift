import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ScanContract
import ServiceLifecycle
import Testing
@testable import switchd
@testable import SwitchdStore

/// A switchd wired as `main` wires it, over the given database, for `app.test(...)`, where a
/// request without an `Authorization` header is sent with an admin token: the tests of what each
/// endpoint does. The tests of who may call what use ``makeUnauthenticatedApp(_:logger:)``.
///
/// Long-polls and switch deadlines wait on `clock`: give a ``WatchedClock`` to drive them. Batches
/// are received and walks start and arrive at `wallClock`'s time: give a ``SetWallClock``'s. The radio
/// map's expected errors come from `expectedErrors` in the background: wait on its ``ExpectedErrorEstimates/settled()``.
/// SVG plans are read by `svgPlans` (a tiny budget, a held parse); only critical lines are logged
/// unless a `logger` is given. `limits` bound the registries and locating.
func makeApp(
    _ database: AppDatabase, maxBodyBytes: Int = Settings.defaultMaxBodyBytes, maxPlanBytes: Int = Settings.defaultMaxPlanBytes,
    adminFiles: AdminFiles? = nil, visitFiles: AdminFiles? = nil, clock: any Clock<Duration> = ContinuousClock(),
    metrics: SwitchdMetrics = SwitchdMetrics(), expectedErrors: ExpectedErrorEstimates = ExpectedErrorEstimates(),
    wallClock: WallClock = .system, svgPlans: SVGPlanReader? = nil, logger: Logger? = nil, limits: Limits = Limits()
) -> AdminByDefault<some ApplicationProtocol> {
    var quiet = Logger(label: "switchd-tests")
    quiet.logLevel = .critical
    var settings = Settings(host: "127.0.0.1", port: 0, maxBodyBytes: maxBodyBytes, maxPlanBytes: maxPlanBytes)
    settings.webhookDestinations = .testReceivers
    settings.limits = limits
    let app = buildApplication(SwitchdDependencies(
        settings: settings, database: database, logger: logger ?? quiet, adminFiles: adminFiles, visitFiles: visitFiles, metrics: metrics,
        clock: clock, wallClock: wallClock, expectedErrors: expectedErrors, svgPlans: svgPlans
    ))
    return AdminByDefault(base: app, database: database)
}

/// A switchd wired as `main` wires it; requests carry only the headers a test gives them.
func makeUnauthenticatedApp(
    _ database: AppDatabase, logger: Logger? = nil, metrics: SwitchdMetrics = SwitchdMetrics(),
    authThrottle: FailedAuthThrottle = FailedAuthThrottle()
) -> some ApplicationProtocol {
    var quiet = Logger(label: "switchd-tests")
    quiet.logLevel = .critical
    var settings = Settings(host: "127.0.0.1", port: 0)
    settings.webhookDestinations = .testReceivers
    return buildApplication(SwitchdDependencies(
        settings: settings, database: database, logger: logger ?? quiet, metrics: metrics, authThrottle: authThrottle
    ))
}

/// Issues a token straight into the database; returns its secret.
func issueToken(_ database: AppDatabase, _ role: TokenRole, scannerID: ScannerID? = nil, name: String? = nil) async throws -> String {
    let token = BearerToken.generate()
    _ = try await database.issueToken(NewToken(name: name, role: role, scannerID: scannerID), token: token, at: Date())
    return token.secret
}

func bearer(_ token: String) -> HTTPFields {
    [.authorization: "Bearer \(token)"]
}

/// Wraps an app so that requests with no `Authorization` header carry an admin token, issued in
/// `database` when the app starts. Live servers (`.live`, raw sockets) see the same.
struct AdminByDefault<Base: ApplicationProtocol>: ApplicationProtocol {
    let base: Base
    let database: AppDatabase

    struct Responder: HTTPResponder {
        let base: Base.Responder
        let authorization: String

        func respond(to request: Request, context: Base.Context) async throws -> Response {
            guard request.headers[.authorization] == nil else {
                return try await base.respond(to: request, context: context)
            }
            var head = request.head
            head.headerFields[.authorization] = authorization
            return try await base.respond(to: Request(head: head, body: request.body), context: context)
        }
    }

    var responder: Responder {
        get async throws {
            let token = try await issueToken(database, .admin, name: "tests' admin")
            return Responder(base: try await base.responder, authorization: "Bearer \(token)")
        }
    }

    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    func onServerRunning(_ channel: any Channel) async { await base.onServerRunning(channel) }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }
}

/// A database pool in a fresh temporary folder, as production opens it; removed afterwards.
func withTemporaryDatabase<Value>(_ body: (AppDatabase, String) async throws -> Value) async throws -> Value {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchd-tests-\(UUID().uuidString)").path
    defer {
        do {
            try FileManager.default.removeItem(atPath: directory)
        } catch {
            Issue.record("could not remove \(directory): \(error)")
        }
    }
    return try await body(try AppDatabase.open(stateDirectory: directory), directory)
}

/// Row counts of every table a bad request must leave alone.
struct StoredCounts: Equatable {
    var measurements: Int
    var batches: Int
    var floors: Int
    var rooms: Int
    var locations: Int
    var scanners: Int
    var revisions: Int

    init(_ database: AppDatabase) async throws {
        let counts = try await database.writer.read { db in
            try ["measurement", "batch", "floor", "room", "location", "scanner", "switch_revision"].map { table in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            }
        }
        (measurements, batches, floors, rooms, locations, scanners, revisions) =
            (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6])
    }
}

// MARK: - JSON

func jsonBody(_ value: some Encodable) throws -> ByteBuffer {
    ByteBuffer(bytes: try JSONCoding.encoder().encode(value))
}

func decoded<Value: Decodable>(_ type: Value.Type, _ response: TestResponse) throws -> Value {
    try JSONCoding.decoder().decode(type, from: Data(response.body.readableBytesView))
}

func errorBody(_ response: TestResponse) throws -> APIErrorBody.Detail {
    try decoded(APIErrorBody.self, response).error
}

extension TestClientProtocol {
    /// Sends `value` as JSON and returns the response.
    func send(_ method: HTTPRequest.Method, _ uri: String, json value: some Encodable) async throws -> TestResponse {
        try await execute(uri: uri, method: method, headers: [.contentType: "application/json"], body: jsonBody(value))
    }

    /// Sends raw text as the body.
    func send(_ method: HTTPRequest.Method, _ uri: String, text: String) async throws -> TestResponse {
        try await execute(uri: uri, method: method, headers: [.contentType: "application/json"], body: ByteBuffer(string: text))
    }

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers)
    }

    /// Sends `value` as JSON, checks the status and decodes the answer.
    func expect<Value: Decodable>(
        _ status: HTTPResponse.Status, _ method: HTTPRequest.Method, _ uri: String, json value: some Encodable, as type: Value.Type
    ) async throws -> Value {
        let response = try await send(method, uri, json: value)
        guard response.status == status else {
            throw UnexpectedStatus(method: method, uri: uri, status: response.status, body: String(buffer: response.body))
        }
        return try decoded(type, response)
    }

    func expect<Value: Decodable>(_ status: HTTPResponse.Status, get uri: String, as type: Value.Type) async throws -> Value {
        let response = try await get(uri)
        guard response.status == status else {
            throw UnexpectedStatus(method: .get, uri: uri, status: response.status, body: String(buffer: response.body))
        }
        return try decoded(type, response)
    }
}

struct UnexpectedStatus: Error, CustomStringConvertible {
    var method: HTTPRequest.Method
    var uri: String
    var status: HTTPResponse.Status
    var body: String

    var description: String { "\(method.rawValue) \(uri) answered \(status.code): \(body)" }
}
