import Hummingbird

extension Router<AppRequestContext> {
    /// The methods a path can be asked with that are told 405 rather than 404: the API's own, and
    /// HEAD, OPTIONS, TRACE and QUERY (the safe query-with-a-body method of the HTTP working
    /// group's draft), which no route serves (a HEAD is not a GET without its body here).
    private static let knownMethods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .head, .options, .trace, query]
    private static let query = HTTPRequest.Method("QUERY")!

    /// Answers 405 `method_not_allowed`, with an `Allow` header, to the other methods on a path
    /// that serves only `methods` (the router alone would answer 404).
    func allowOnly(_ methods: [HTTPRequest.Method], on path: RouterPath) {
        for method in Self.knownMethods where !methods.contains(method) {
            on(path, method: method) { request, _ -> Response in
                throw APIError.methodNotAllowed(request.method, allowed: methods)
            }
        }
    }
}
