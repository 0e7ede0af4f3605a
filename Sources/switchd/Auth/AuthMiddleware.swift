import Hummingbird
import Logging
import ScanContract
import SwitchdStore

/// Checks every routed request against ``RoutePolicy``: the bearer token must name an active
/// token whose role (and, for scanner tokens, scanner ID) the route's ``AccessRule`` allows.
///
/// Runs after the router has matched the route (Hummingbird applies router middleware per
/// route), so it sees the route's path pattern and parameters. Answers 401 with
/// `WWW-Authenticate: Bearer` when the token is missing, malformed, unknown or revoked, and 403
/// when the role may not call the route. On success the ``Principal`` is on the context for the
/// controllers. Tokens are never logged: only the token's ID and role are.
///
/// A presented token that is malformed, unknown or revoked is a failed authentication: logged
/// (address, reason, path; never the token), counted in `switchd_auth_failures_total`, and
/// counted against the client's address by ``FailedAuthThrottle``. While an address is over its
/// limit, a request from it whose token is not active gets 429 `too_many_requests` with
/// `Retry-After` (not 401, and not logged again) until its window ends; a request with an active
/// token is served as ever, so one device guessing from behind the same NAT, proxy or guest
/// Wi-Fi as a building's scanners never locks the scanners out.
struct AuthMiddleware: RouterMiddleware {
    let authenticator: TokenAuthenticator
    let policy: RoutePolicy
    let throttle: FailedAuthThrottle
    let metrics: SwitchdMetrics

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        let rule = policy.rule(for: request.method, path: context.endpointPath)
        if rule.isOpen {
            return try await next(request, context)
        }
        let throttled = throttle.retryAfter(for: context.clientAddress)
        let (principal, token, fromMemory) = try await authenticate(
            request, context: context, acceptingRemembered: rule.checksTokenWhenStoring, throttledFor: throttled
        )
        var context = context
        context.principal = principal
        context.logger[metadataKey: "token"] = "\(principal.tokenID)"
        do {
            guard rule.allows(principal, pathScanner: context.parameters.get("id")) else {
                throw refusal(of: principal, by: rule, request: request, context: context)
            }
            return try await next(request, context)
        } catch StoreError.tokenRevoked {
            // Revoked after an earlier request found it active (``AccessRule/checksTokenWhenStoring``).
            authenticator.forget(token)
            try refuseIfThrottled(throttled)
            recordFailure(reason: "revoked_token", request: request, context: context)
            throw APIError.unknownOrRevokedToken
        } catch where fromMemory && Self.refusesWhatWasSent(error) {
            // Refused before the store checked the token (a scanner it may not act for, a body
            // that does not validate): a token taken from memory may have been revoked since, and
            // a revoked token is told so (401), as on any other route, rather than what else was
            // wrong. One read, on such refusals only; busy, conflicts and failures keep their answer.
            let refused = error
            let stillActive: Bool
            do {
                stillActive = try await authenticator.principal(for: token) != nil
            } catch {
                throw refused   // the token table unreadable: the first refusal stands
            }
            guard stillActive else {
                try refuseIfThrottled(throttled)
                recordFailure(reason: "revoked_token", request: request, context: context)
                throw APIError.unknownOrRevokedToken
            }
            throw refused
        }
    }

    /// The 403 for a principal whose role (or scanner) the route's rule does not allow.
    private func refusal(of principal: Principal, by rule: AccessRule, request: Request, context: AppRequestContext) -> APIError {
        context.logger.debug("Request refused: role not allowed", metadata: [
            "role": "\(principal.role.rawValue)", "path": "\(request.uri.path)",
        ])
        if principal.role == .scanner, rule.roles.contains(.scanner) {
            return APIError.forbidden(principal, actingFor: context.parameters.get("id") ?? "")
        }
        let allowed = TokenRole.allCases.filter(rule.roles.contains).map(\.rawValue).joined(separator: " or ")
        return APIError.forbidden("a \(principal.role.rawValue) token may not \(request.method.rawValue) this resource; it needs \(allowed)")
    }

    /// Whether `error` refuses what the client sent (its body, or a scanner it may not act for),
    /// which the handlers find before the store sees the request; a busy server, a conflict or a
    /// failure are about the server's state.
    private static func refusesWhatWasSent(_ error: any Error) -> Bool {
        switch error {
        case is DecodingError, is ValidationError:
            true
        case let error as any HTTPResponseError:
            [.badRequest, .forbidden, .contentTooLarge, .unprocessableContent].contains(error.status)
        default:
            false
        }
    }

    /// The principal of the request's token, the token, and whether the principal was taken from
    /// memory (``TokenAuthenticator/authenticate(_:acceptingRemembered:)``) rather than read now.
    ///
    /// - Parameter throttledFor: how long the client's address is still throttled, if it is: a
    ///   malformed, unknown or revoked token then gets 429 instead of being counted and logged.
    private func authenticate(
        _ request: Request, context: AppRequestContext, acceptingRemembered: Bool, throttledFor wait: Duration?
    ) async throws -> (Principal, BearerToken, fromMemory: Bool) {
        let headers = request.headers[values: .authorization]
        guard let header = headers.first else {
            throw APIError.unauthorized("this needs a bearer token: send Authorization: Bearer <token>", invalidToken: false)
        }
        guard headers.count == 1, let token = BearerToken(authorization: header) else {
            try refuseIfThrottled(wait)
            recordFailure(reason: "malformed", request: request, context: context)
            throw APIError.unauthorized("the Authorization header must be one Bearer <token>", invalidToken: true)
        }
        guard let (principal, fromMemory) = try await authenticator.authenticate(token, acceptingRemembered: acceptingRemembered) else {
            try refuseIfThrottled(wait)
            recordFailure(reason: "unknown_token", request: request, context: context)
            throw APIError.unknownOrRevokedToken
        }
        return (principal, token, fromMemory)
    }

    /// 429 for a failed authentication from an address that is throttled now.
    private func refuseIfThrottled(_ wait: Duration?) throws {
        guard let wait else { return }
        metrics.authThrottled.increment()
        throw APIError.tooManyFailedAuthentications(retryAfter: wait)
    }

    /// Logs and counts a failed authentication; the token itself is never logged. One line per
    /// failure until the address is throttled, then none while it is.
    private func recordFailure(reason: String, request: Request, context: AppRequestContext) {
        throttle.recordRefusal("Authentication", reason: reason, metadata: ["path": "\(request.uri.path)"], context: context, metrics: metrics)
    }
}
