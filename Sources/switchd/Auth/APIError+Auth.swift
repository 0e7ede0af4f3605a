import Hummingbird
import ScanContract

extension APIError {
    /// 401 `unauthorized` with `WWW-Authenticate: Bearer` (RFC 6750 §3): no token, another
    /// scheme, or a token switchd does not know or has revoked. The message never quotes the token.
    static func unauthorized(_ message: String, invalidToken: Bool) -> APIError {
        let challenge = invalidToken ? #"Bearer realm="switchd", error="invalid_token""# : #"Bearer realm="switchd""#
        return APIError(.unauthorized, code: "unauthorized", message: message, headers: [.wwwAuthenticate: challenge])
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
