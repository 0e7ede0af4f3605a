import Foundation
import Hummingbird
import ScanContract
import SwitchdStore

/// `GET /v1/radiomap`: the ``RadioMap`` scanners position themselves with, built from the survey.
///
/// Carries a strong `ETag` that changes exactly when the survey does (``SurveyVersion``, counted by triggers in the store)
/// or when the locations' expected errors arrive (``RadioMapCache/Entry/entityTag``);
/// a request whose `If-None-Match` holds it (or `*`) gets 304 with no body.
struct RadioMapController {
    let database: AppDatabase
    let cache: RadioMapCache

    func addRoutes(to routes: Routes) {
        routes.get("/v1/radiomap", .readForScanners, use: show)
        routes.allowOnly([.get], on: "/v1/radiomap")
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let entry = try await cache.current(from: database)
        let tag = entry.entityTag
        if Self.matches(request.headers[values: .ifNoneMatch].joined(separator: ","), tag) {
            return Response(status: .notModified, headers: [.eTag: tag])
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(entry.json.count), .eTag: tag],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: entry.json))
        )
    }

    /// RFC 9110 §13.1.2: `*`, or a list of tags compared weakly (a `W/` prefix is ignored).
    static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || (trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed) == tag
        }
    }
}
