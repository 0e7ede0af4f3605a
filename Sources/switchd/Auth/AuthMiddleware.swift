import Hummingbird
import ScanContract

/// Checks every routed request against ``RoutePolicy``: the bearer token must name an active
/// token whose role (and, for scanner tokens, scanner ID) the route's ``AccessRule`` allows.
///
/// Runs after the router has matched the route (Hummingbird applies router middleware per
/// route), so it sees the route's path pattern and parameters. Answers 401 with
/// `WWW-Authenticate: Bearer` when the token is missing, malformed, unknown or revoked, and 403
/// when the role may not call the route. On success the ``Principal`` is on the context for the
/// controllers. Tokens are never logged: only the token's ID and role are.
struct AuthMiddleware: RouterMiddleware {
    let authenticator: TokenAuthenticator
    let policy: RoutePolicy

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        let rule = policy.rule(for: request.method, path: context.endpointPath)
        if rule.isOpen {
            return try await next(request, context)
        }
        let principal = try await authenticate(request)
        guard rule.allows(principal, pathScanner: context.parameters.get("id")) else {
            context.logger.debug("Request refused: role not allowed", metadata: [
                "token": "\(principal.tokenID)", "role": "\(principal.role.rawValue)", "path": "\(request.uri.path)",
            ])
            if principal.role == .scanner, rule.roles.contains(.scanner) {
                throw APIError.forbidden(principal, actingFor: context.parameters.get("id") ?? "")
            }
            let allowed = TokenRole.allCases.filter(rule.roles.contains).map(\.rawValue).joined(separator: " or ")
            throw APIError.forbidden("a \(principal.role.rawValue) token may not \(request.method.rawValue) this resource; it needs \(allowed)")
        }
        var context = context
        context.principal = principal
        context.logger[metadataKey: "token"] = "\(principal.tokenID)"
        return try await next(request, context)
    }

    private func authenticate(_ request: Request) async throws -> Principal {
        let headers = request.headers[values: .authorization]
        guard let header = headers.first else {
            throw APIError.unauthorized("this needs a bearer token: send Authorization: Bearer <token>", invalidToken: false)
        }
        guard headers.count == 1, let token = BearerToken(authorization: header) else {
            throw APIError.unauthorized("the Authorization header must be one Bearer <token>", invalidToken: true)
        }
        guard let principal = try await authenticator.principal(for: token) else {
            throw APIError.unauthorized("the bearer token is unknown or revoked", invalidToken: true)
        }
        return principal
    }
}
