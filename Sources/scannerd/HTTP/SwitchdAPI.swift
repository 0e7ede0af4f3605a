#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Positioning
import ScanContract

/// The calls scannerd makes to switchd's v1 API.
struct SwitchdAPI: Sendable {
    let baseURL: URL
    let client: any HTTPClient
    /// Sent as `Authorization: Bearer` on every request; nil sends none (switchd answers 401).
    var token: SwitchdToken? = nil
    /// The most bytes a radio map may take (`--radio-map-max-bytes`); every other answer is held
    /// to ``HTTPRequest/smallAnswerLimit``.
    var radioMapLimit: Int = SwitchdAPI.defaultRadioMapLimit

    /// A building of a few thousand surveyed locations fits with room to spare, and a Pi decodes it
    /// without running short of memory.
    static let defaultRadioMapLimit = 32 * 1024 * 1024

    /// Time allowed beyond a long-poll's own wait before the request counts as lost.
    static let longPollGrace: Duration = .seconds(10)
    /// Time allowed for an ordinary request.
    static let requestTimeout: Duration = .seconds(10)
    /// A whole building's radio map can take a while over a Pi's Wi-Fi.
    static let radioMapTimeout: Duration = .seconds(60)

    /// `GET /v1/scanners/{id}/switch`: at once without `revision`; with it, held by switchd until
    /// the revision differs or `wait` passes. Given `watching` (the ``ScanSwitch/watchedDigest``
    /// of the watched tags and keys held now: a listening scanner), the answer carries switchd's
    /// watched tags, and a long-poll is also answered as soon as they differ from those.
    ///
    /// Throws ``SwitchdAPIError`` for an answer other than 200 or a body that is not a switch, and
    /// the client's errors for transport failures and answers longer than
    /// ``HTTPRequest/smallAnswerLimit`` (``HTTPAnswerTooLargeError``).
    func scanSwitch(
        of scanner: ScannerID, afterRevision revision: Int?, watching: String? = nil, settings: Int? = nil, wait: Duration
    ) async throws -> ScanSwitch {
        var components = URLComponents(url: url("v1", "scanners", scanner.rawValue, "switch"), resolvingAgainstBaseURL: false)!
        var query: [URLQueryItem] = []
        if let revision {
            query.append(URLQueryItem(name: "revision", value: String(revision)))
            query.append(URLQueryItem(name: "wait", value: String(Int(wait.seconds.rounded(.up)))))
        }
        if let settings, revision != nil {
            query.append(URLQueryItem(name: "settings", value: String(settings)))
        }
        if let watching {
            query.append(URLQueryItem(name: "watched", value: watching))
        }
        if !query.isEmpty { components.queryItems = query }
        let timeout = revision == nil ? Self.requestTimeout : wait + Self.longPollGrace
        let response = try await client.send(request(.get, components.url!, timeout: timeout))
        return try Self.decode(ScanSwitch.self, from: response, expecting: [200])
    }

    /// `GET /v1/locations/{id}`. Throws like ``scanSwitch(of:afterRevision:wait:)``.
    func location(_ id: Int64, timeout: Duration = requestTimeout) async throws -> Location {
        let response = try await client.send(request(.get, url("v1", "locations", String(id)), timeout: timeout))
        return try Self.decode(Location.self, from: response, expecting: [200])
    }

    /// `POST /v1/measurements` with an already encoded ``MeasurementBatch``; any status is returned.
    func postBatch(_ body: Data) async throws -> HTTPResponse {
        try await client.send(request(.post, url("v1", "measurements"), body: body, timeout: Self.requestTimeout))
    }

    /// `GET /v1/radiomap`, conditional on the copy scannerd holds. Throws like
    /// ``scanSwitch(of:afterRevision:wait:)``, ``SwitchdAPIError/undecodable(_:_:)`` when a 200
    /// carries no `ETag`, and ``HTTPAnswerTooLargeError`` for a map longer than ``radioMapLimit``.
    func radioMap(ifNoneMatch etag: String?) async throws -> RadioMapAnswer {
        let headers = etag.map { ["If-None-Match": $0] } ?? [:]
        let response = try await client.send(request(
            .get, url("v1", "radiomap"), headers: headers, timeout: Self.radioMapTimeout, answerLimit: radioMapLimit
        ))
        if response.status == 304, let etag { return .unchanged(etag: etag) }
        let map = try Self.decode(RadioMap.self, from: response, expecting: [200])
        guard let newTag = response.headers["etag"] else {
            throw SwitchdAPIError.undecodable("radio map", "switchd sent no ETag with it")
        }
        return .changed(map, etag: newTag)
    }

    /// `POST /v1/positions`; returns the stored position. Throws like ``scanSwitch(of:afterRevision:wait:)``.
    func postPosition(_ position: NewPosition) async throws -> Position {
        let body = try JSONCoding.encoder().encode(position)
        let response = try await client.send(request(.post, url("v1", "positions"), body: body, timeout: Self.requestTimeout))
        return try Self.decode(Position.self, from: response, expecting: [200, 201])
    }

    /// Every request goes out through here, so none leaves without the token.
    func request(
        _ method: HTTPRequest.Method, _ url: URL, body: Data? = nil, headers: [String: String] = [:], timeout: Duration,
        answerLimit: Int = HTTPRequest.smallAnswerLimit
    ) -> HTTPRequest {
        var headers = headers
        if let token { headers["Authorization"] = token.authorization }
        return HTTPRequest(method, url, body: body, headers: headers, timeout: timeout, answerLimit: answerLimit)
    }

    /// `PUT /v1/scanners/{id}/counters`. Throws like ``scanSwitch(of:afterRevision:wait:)``.
    func putCounters(_ counters: ScannerCounters, of scanner: ScannerID) async throws {
        let body = try JSONCoding.encoder().encode(counters)
        let url = url("v1", "scanners", scanner.rawValue, "counters")
        let response = try await client.send(request(.put, url, body: body, timeout: Self.requestTimeout))
        guard response.status == 204 else {
            throw SwitchdAPIError.status(response.status, SwitchdAPIError.describe(response.body))
        }
    }

    func url(_ components: String...) -> URL {
        components.reduce(baseURL) { $0.appendingPathComponent($1) }
    }

    static func decode<Body: Decodable>(_ type: Body.Type, from response: HTTPResponse, expecting statuses: Set<Int>) throws -> Body {
        guard statuses.contains(response.status) else {
            throw SwitchdAPIError.status(response.status, SwitchdAPIError.describe(response.body))
        }
        do {
            return try JSONCoding.decoder().decode(Body.self, from: response.body)
        } catch {
            throw SwitchdAPIError.undecodable(String(describing: Body.self), "\(error)")
        }
    }
}

/// What a conditional radio-map request brought.
enum RadioMapAnswer: Sendable {
    /// The copy with this ETag is still current (304).
    case unchanged(etag: String)
    case changed(RadioMap, etag: String)
}

/// switchd answered, but not as hoped.
enum SwitchdAPIError: Error, CustomStringConvertible {
    /// An unexpected status, with switchd's error message when it sent one.
    case status(Int, String)
    /// A 2xx whose body was not the expected type.
    case undecodable(String, String)

    var status: Int? {
        if case .status(let status, _) = self { return status }
        return nil
    }

    var description: String {
        switch self {
        case .status(let status, let message): "HTTP \(status): \(message)"
        case .undecodable(let type, let reason): "the answer is not a \(type): \(reason)"
        }
    }

    /// Longest stretch of a non-JSON error body worth quoting in a log line.
    static let quotedBodyLimit = 200

    /// switchd's error message, or the start of whatever else the body held.
    static func describe(_ body: Data) -> String {
        if let error = try? JSONCoding.decoder().decode(APIErrorBody.self, from: body) {
            return [error.error.code, error.error.field, error.error.message].compactMap { $0 }.joined(separator: " ")
        }
        // Not switchd's error shape (a proxy's page, say): quote it as text.
        return String(decoding: body.prefix(quotedBodyLimit), as: UTF8.self)
    }
}
