import Hummingbird

extension Router<AppRequestContext> {
    private static let knownMethods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]

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
