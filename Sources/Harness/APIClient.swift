import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ScanContract

/// A small JSON client of switchd's v1 API, for tests and the benchmark.
public struct APIClient: Sendable {
    public let baseURL: URL
    /// Sent as `Authorization: Bearer` unless a request sets its own `Authorization`.
    public let token: String?
    private let session: URLSession

    public init(baseURL: URL, token: String? = nil) {
        self.baseURL = baseURL
        self.token = token
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 120
        configuration.httpMaximumConnectionsPerHost = 16
        session = URLSession(configuration: configuration)
    }

    public struct Response: Sendable {
        public let status: Int
        public let body: Data
        public let headers: [String: String]

        public var text: String { String(decoding: body, as: UTF8.self) }

        public func decode<T: Decodable>(_ type: T.Type) throws -> T {
            do {
                return try JSONCoding.decoder().decode(type, from: body)
            } catch {
                throw HarnessError("cannot decode \(type) from HTTP \(status): \(text.prefix(500)) — \(error)")
            }
        }

        public var error: APIErrorBody.Detail? {
            (try? JSONCoding.decoder().decode(APIErrorBody.self, from: body))?.error
        }
    }

    /// Sends a request with a raw body. Throws only when no HTTP answer came.
    public func send(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]) async throws -> Response {
        guard let url = URL(string: path, relativeTo: baseURL) else { throw HarnessError("bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw HarnessError("not an HTTP response") }
        var headerFields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            headerFields[String(describing: key).lowercased()] = String(describing: value)
        }
        return Response(status: http.statusCode, body: data, headers: headerFields)
    }

    public func send(_ method: String, _ path: String, json: some Encodable) async throws -> Response {
        try await send(method, path, body: try JSONCoding.encoder().encode(json))
    }

    /// Sends and decodes, insisting on a 2xx answer.
    public func call<T: Decodable>(_ method: String, _ path: String, json: (some Encodable)? = Optional<Int>.none, as type: T.Type) async throws -> T {
        let response = if let json { try await send(method, path, json: json) } else { try await send(method, path) }
        guard (200..<300).contains(response.status) else {
            throw HarnessError("\(method) \(path) → HTTP \(response.status): \(response.text.prefix(500))")
        }
        return try response.decode(type)
    }

    // MARK: The calls tests and the benchmark make most

    /// Polls `GET /v1/scanners/{id}` until `done` holds (30 s at most).
    public func waitForScanner(_ id: String = "default", until done: (ScanContract.Scanner) -> Bool) async throws -> ScanContract.Scanner {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let scanner = try await call("GET", "/v1/scanners/\(id)", as: ScanContract.Scanner.self)
            if done(scanner) { return scanner }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HarnessError("scanner \(id) never got there")
    }

    public func createFloor(_ name: String, level: Int = 0) async throws -> Floor {
        try await call("POST", "/v1/floors", json: NewFloor(name: name, level: level), as: Floor.self)
    }

    public func createRoom(_ name: String, floor: Floor) async throws -> Room {
        try await call("POST", "/v1/rooms", json: NewRoom(floorID: floor.id, name: name), as: Room.self)
    }

    public func createLocation(in room: Room, x: Double, y: Double, name: String? = nil) async throws -> Location {
        try await call("POST", "/v1/locations", json: NewLocation(roomID: room.id, name: name, x: x, y: y), as: Location.self)
    }

    public func patchSwitch(_ patch: SwitchPatch, scanner: String = "default") async throws -> ScanSwitch {
        try await call("PATCH", "/v1/scanners/\(scanner)/switch", json: patch, as: ScanSwitch.self)
    }

    public func scanSwitch(_ scanner: String = "default") async throws -> ScanSwitch {
        try await call("GET", "/v1/scanners/\(scanner)/switch", as: ScanSwitch.self)
    }

    /// Issues a token (admin only); returns its secret.
    public func issueToken(_ new: NewToken) async throws -> String {
        try await call("POST", "/v1/tokens", json: new, as: IssuedToken.self).token
    }

    public func createBeacon(_ beacon: NewBeacon) async throws -> Beacon {
        try await call("POST", "/v1/beacons", json: beacon, as: Beacon.self)
    }

    /// The newest position `scanner` posted; throws while it has posted none (404).
    public func latestPosition(of scanner: String = "default") async throws -> Position {
        try await call("GET", "/v1/positions/latest?scannerID=\(scanner)", as: Position.self)
    }

    /// Follows `nextCursor` to the end and returns every stored measurement matching `query`.
    public func allMeasurements(query: String = "", pageSize: Int = 1000) async throws -> [StoredMeasurement] {
        var all: [StoredMeasurement] = []
        var cursor: String?
        repeat {
            var path = "/v1/measurements?limit=\(pageSize)" + (query.isEmpty ? "" : "&\(query)")
            if let cursor { path += "&cursor=\(cursor)" }
            let page = try await call("GET", path, as: Page<StoredMeasurement>.self)
            all += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return all
    }
}
