import Hummingbird

/// Applies the configured request body limit (`--max-body-bytes`): collecting a larger body
/// throws, and ``ErrorMiddleware`` answers 413 `body_too_large`.
struct BodyLimitMiddleware: RouterMiddleware {
    let maxBodyBytes: Int

    func handle(_ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response) async throws -> Response {
        var context = context
        context.maxUploadSize = maxBodyBytes
        return try await next(request, context)
    }
}
