import Foundation
import Hummingbird
import Logging
import NIOHTTP1
import ScanContract
import SwitchdStore

/// Turns every error a handler throws into the v1 error JSON, so no client ever sees an empty
/// or HTML error: the outermost middleware.
///
/// Unknown errors become 500 `internal` with the details logged, not sent.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = Self.apiError(for: error, request: request, logger: context.logger)
            return try apiError.response(from: request, context: context)
        }
    }

    static func apiError(for error: any Error, request: Request, logger: Logger) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as StoreError:
            return apiError(for: error, logger: logger)
        case let error as ValidationError:
            return .invalidField(error)
        case is NotYetOnPostgres:
            return .notOnPostgres(request.method, request.uri.path)
        case let error as DecodingError:
            if error.isMalformedJSON {
                return APIError(.badRequest, code: "malformed_json", message: "the body is not valid JSON: \(error.reason)")
            }
            return .invalidField(error.fieldPath, error.reason)
        case let error as any HTTPResponseError:
            return apiError(forStatus: error.status, request: request)
        case let error as HTTPParserError:
            // The body broke HTTP/1.1's framing (a bad chunk size, say) while a handler read it.
            return APIError(.badRequest, code: "bad_request", message: "the request is not valid HTTP/1.1: \(error)")
        default:
            logger.error("Request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return APIError(.internalServerError, code: "internal", message: "switchd could not answer; the details are in its log")
        }
    }

    static func apiError(for error: StoreError, logger: Logger) -> APIError {
        switch error {
        case .notFound(let message): return .notFound(message)
        case .invalidField(let validation): return .invalidField(validation)
        case .conflict(let message): return .conflict(message)
        case .corruptRow(let detail):
            logger.error("Stored row unreadable", metadata: ["detail": "\(detail)"])
            return APIError(.internalServerError, code: "internal", message: "switchd could not read what it stored; the details are in its log")
        case .tokenRevoked:
            return .unknownOrRevokedToken
        case .storageFull:
            logger.error("Disk full: a write was refused and rolled back")
            return APIError(
                insufficientStorage, code: "insufficient_storage",
                message: "switchd's disk is full: nothing of this request was stored; send it again once space is freed"
            )
        }
    }

    /// 507 (RFC 4918 §11.5), which HTTPTypes does not name.
    static var insufficientStorage: HTTPResponse.Status { HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage") }

    /// Hummingbird's own errors: an unknown route, a body over the limit, …
    private static func apiError(forStatus status: HTTPResponse.Status, request: Request) -> APIError {
        switch status {
        case .notFound:
            return .notFound("no such resource: \(request.method.rawValue) \(APIError.echo(request.uri.path))")
        case .contentTooLarge:
            return APIError(status, code: "body_too_large", message: "the request body is larger than switchd accepts")
        case .badRequest:
            return APIError(status, code: "bad_request", message: "the request could not be read")
        default:
            let code = status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
            return APIError(status, code: code.isEmpty ? "http_\(status.code)" : code, message: status.reasonPhrase)
        }
    }
}

extension APIError {
    /// 501: a store method the route needs (`NotYetOnPostgres`) runs on SQLite only so far.
    static func notOnPostgres(_ method: HTTPRequest.Method, _ path: String) -> APIError {
        APIError(
            .notImplemented, code: "not_on_postgres",
            message: "\(method.rawValue) \(path) is not available on PostgreSQL yet: it runs on SQLite only so far (docs/scale-out.md says what runs on PostgreSQL)"
        )
    }
}
