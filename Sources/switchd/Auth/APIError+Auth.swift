import Hummingbird
import ScanContract

extension APIError {
    /// 401 `unauthorized` with `WWW-Authenticate: Bearer` (RFC 6750 §3): no token, another
    /// scheme, or a token switchd does not know or has revoked. The message never quotes the token.
    static func unauthorized(_ message: String, invalidToken: Bool) -> APIError {
        let challenge = invalidToken ? #"Bearer realm="switchd", error="invalid_token""# : #"Bearer realm="switchd""#
        return APIError(.unauthorized, code: "unauthorized", message: message, headers: [.wwwAuthenticate: challenge])
    }

    /// 401 for a well-formed token that is not an active one: never issued, or revoked.
    static var unknownOrRevokedToken: APIError {
        unauthorized("the bearer token is unknown or revoked", invalidToken: true)
    }

    /// 403 `forbidden`: the token is valid but its role (or scanner) may not do this.
    static func forbidden(_ message: String) -> APIError {
        APIError(.forbidden, code: "forbidden", message: message)
    }

    /// 403 for a `scanner` token acting for another scanner than its own.
    static func forbidden(_ principal: Principal, actingFor scanner: String) -> APIError {
        forbidden("this scanner token speaks for scanner \(principal.scannerID.map { "\($0)" } ?? "(none)"), not \(APIError.echo(scanner))")
    }
}

extension APIError {
    /// 429 `too_many_requests` with `Retry-After` in whole seconds (RFC 9110 §10.2.3), for an
    /// address that failed to authenticate too often.
    static func tooManyFailedAuthentications(retryAfter wait: Duration) -> APIError {
        let seconds = wait.wholeSecondsRoundedUp
        return APIError(
            .tooManyRequests, code: "too_many_requests",
            message: "too many failed authentications from this address; try again in \(seconds) s",
            headers: [.retryAfter: String(seconds)]
        )
    }
}

extension Duration {
    /// At least 1: a `Retry-After` of 0 would invite an immediate retry.
    var wholeSecondsRoundedUp: Int64 {
        let (seconds, attoseconds) = components
        return max(1, attoseconds > 0 ? seconds + 1 : seconds)
    }
}
