import Foundation
import Hummingbird
import ScanContract

/// An error answer of the v1 API: a status and an ``APIErrorBody``.
struct APIError: Error, HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var body: APIErrorBody
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, code: String, message: String, field: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.body = APIErrorBody(code: code, message: message, field: field)
        self.headers = headers
    }

    static func notFound(_ message: String) -> APIError {
        APIError(.notFound, code: "not_found", message: message)
    }

    static func invalidField(_ field: String, _ reason: String) -> APIError {
        APIError(.unprocessableContent, code: "invalid_field", message: "\(field): \(reason)", field: field)
    }

    static func invalidField(_ error: ValidationError) -> APIError {
        invalidField(error.field, error.reason)
    }

    static func conflict(_ message: String) -> APIError {
        APIError(.conflict, code: "conflict", message: message)
    }

    static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: [HTTPRequest.Method]) -> APIError {
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        return APIError(
            .methodNotAllowed, code: "method_not_allowed", message: "\(method.rawValue) is not allowed here; use \(allow)",
            headers: [.allow: allow]
        )
    }

    /// This error as the refusal of the uploaded batch `batchID`, when it is one: a 422 or a 409
    /// names the batch, so that the scanner knows switchd itself refused that very batch and gives
    /// it up. Any other error is returned as it is, and the scanner sends the batch again.
    func refusing(batch batchID: UUID) -> APIError {
        guard status == .unprocessableContent || status == .conflict else { return self }
        var refusal = self
        refusal.body.error.batchID = batchID
        return refusal
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try Response.json(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}

extension APIError {
    /// How much of a client's value an error message repeats, so a huge value cannot make a
    /// huge answer or log line.
    static let echoedCharacters = 64

    /// The client's value as an error message quotes it: cut to ``echoedCharacters``.
    static func echo(_ text: some StringProtocol) -> String {
        "\"\(text.prefix(echoedCharacters))\""
    }
}
