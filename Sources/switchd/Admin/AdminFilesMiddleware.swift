import Hummingbird

/// Serves the admin page at `/admin/` from ``AdminFiles``; every other path goes on to the API.
///
/// The page is public (it holds no secret; its API calls carry the admin's token). `/admin`
/// redirects to `/admin/`, which is `index.html`. A name that is not one of the files read at
/// start is 404 — `..`, encoded or not, names none. Only GET and HEAD (405 otherwise). Without a
/// folder (none found at start) every `/admin/` path is 404 saying so.
struct AdminFilesMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: AdminFiles?

    static var prefix: String { "/admin/" }

    /// The page's own scripts and styles only, and API calls to switchd; plan images arrive as blobs.
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' blob: data:; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard path == "/admin" || path.hasPrefix(Self.prefix) else {
            return try await next(request, context)
        }
        guard request.method == .get || request.method == .head else {
            throw APIError.methodNotAllowed(request.method, allowed: [.get, .head])
        }
        if path == "/admin" {
            return Response(status: .permanentRedirect, headers: [.location: Self.prefix])
        }
        guard let files else {
            throw APIError.notFound("the admin page is not installed: switchd found no admin folder (see --admin-dir)")
        }
        let name = path.dropFirst(Self.prefix.count)
        let key = name.isEmpty ? "index.html" : String(name).removingPercentEncoding ?? ""
        guard let file = files[key] else {
            throw APIError.notFound("no admin file \(APIError.echo(name))")
        }
        let headers: HTTPFields = [
            .contentType: file.contentType,
            .contentLength: String(file.body.readableBytes),
            .cacheControl: "no-cache",
            .contentSecurityPolicy: Self.contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
        ]
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: file.body)
        return Response(status: .ok, headers: headers, body: body)
    }
}
