import HTTPTypes
import Hummingbird

/// Headers every answer carries, error answers too (it sits outside ``ErrorMiddleware``):
/// `X-Content-Type-Options: nosniff`, so a browser never reads a JSON answer or a plan as
/// something else, and `Referrer-Policy: no-referrer`, so the admin page's address and queries
/// never leave in a `Referer`.
struct ResponseHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.xContentTypeOptions] == nil {
            response.headers[.xContentTypeOptions] = "nosniff"
        }
        if response.headers[.referrerPolicy] == nil {
            response.headers[.referrerPolicy] = "no-referrer"
        }
        return response
    }
}

extension HTTPField.Name {
    /// `Referrer-Policy` (W3C Referrer Policy, 4.1), which HTTPTypes does not name.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
