import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/tokens`: issue, list and revoke bearer tokens (admin only, see ``RoutePolicy``). The
/// same as `switchd token issue|list|revoke` on the command line.
struct TokensController {
    let database: AppDatabase

    func addRoutes(to routes: Routes) {
        routes.post("/v1/tokens", .admin, use: issue)
        routes.get("/v1/tokens", .admin, use: list)
        routes.delete("/v1/tokens/{id}", .admin, use: revoke)
        routes.allowOnly([.get, .post], on: "/v1/tokens")
        routes.allowOnly([.delete], on: "/v1/tokens/{id}")
    }

    /// 201 ``IssuedToken``: the only time the token's secret is ever shown. 422 naming the field
    /// for a bad name, a scanner token without `scannerID` or for a scanner not registered, or
    /// another token with one.
    @Sendable func issue(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewToken.self, context: context)
        try new.validate()
        try await database.checkScannerRegistered(for: new)
        let token = BearerToken.generate()
        let info = try await database.issueToken(new, token: token, at: .nowInMilliseconds())
        context.logger.info("Token issued", metadata: ["issued": "\(info.id)", "role": "\(info.role.rawValue)"])
        return try .json(IssuedToken(token: token.secret, info: info), status: .created)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.tokens())
    }

    /// 200 with the token as it now is (revoked); 404 for an unknown ID. Refused from the next
    /// request on.
    @Sendable func revoke(_ request: Request, context: AppRequestContext) async throws -> Response {
        let info = try await database.revokeToken(context.pathID("token"), at: .nowInMilliseconds())
        context.logger.info("Token revoked", metadata: ["revoked": "\(info.id)"])
        return try .json(info)
    }
}
