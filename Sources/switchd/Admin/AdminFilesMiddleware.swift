import Hummingbird

/// Serves a page's files under its prefix — the admin page at `/admin/`, the visitor page at
/// `/visit/` — from ``AdminFiles``; every other path goes on to the API.
///
/// The page is public (it holds no secret; its API calls carry the user's token). `/admin`
/// redirects to `admin/` (relative, so behind a proxy that strips a prefix, such as Home
/// Assistant's ingress, the browser stays under the prefix), which is `index.html`. A name that is not one of the files read at
/// start is 404 — `..`, encoded or not, names none. Only GET and HEAD (405 otherwise). Without a
/// folder (none found at start) every path under the prefix is 404 saying so.
struct AdminFilesMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: AdminFiles?
    /// `/admin/`: the path the page is served under, with both slashes.
    var prefix = "/admin/"
    /// `admin`, for messages and the option naming the folder (`--admin-dir`).
    var page = "admin"

    /// The page's own scripts and styles only, and API calls to switchd; plan images arrive as blobs.
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' blob: data:; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let bare = String(prefix.dropLast())
        guard path == bare || path.hasPrefix(prefix) else {
            return try await next(request, context)
        }
        guard request.method == .get || request.method == .head else {
            throw APIError.methodNotAllowed(request.method, allowed: [.get, .head])
        }
        if path == bare {
            return Response(status: .permanentRedirect, headers: [.location: String(prefix.dropFirst())])
        }
        guard let files else {
            throw APIError.notFound("the \(page) page is not installed: switchd found no \(page) folder (see --\(page)-dir)")
        }
        let name = path.dropFirst(prefix.count)
        let key = name.isEmpty ? "index.html" : String(name).removingPercentEncoding ?? ""
        guard let file = files[key] else {
            throw APIError.notFound("no \(page) file \(APIError.echo(name))")
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
