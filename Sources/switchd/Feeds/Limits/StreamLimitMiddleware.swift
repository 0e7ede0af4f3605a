import Hummingbird

/// Registers each long-lived stream (a route whose path ends in `/stream`: every
/// `text/event-stream` answer switchd gives) in ``OpenStreams`` for as long as its answer is
/// written, after ``AuthMiddleware`` has named the caller. A stream over its token's or its
/// address's cap is answered 429 `too_many_streams` naming the cap, before the handler runs.
struct StreamLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let streams: OpenStreams

    /// Whether the route `path` (as the router writes it) serves a long-lived stream.
    static func isStream(_ path: String) -> Bool {
        path.hasSuffix("/stream")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let path = context.endpointPath, Self.isStream(path) else {
            return try await next(request, context)
        }
        let ticket: OpenStreams.Ticket
        do {
            ticket = try streams.open(context.principal, address: context.clientAddress, connection: context.connection, parentConnection: context.parentConnection)
        } catch {
            context.logger.debug("Stream refused: cap reached", metadata: ["reason": "\(error)", "address": "\(context.clientAddress)"])
            throw APIError(.tooManyRequests, code: "too_many_streams", message: "\(error)")
        }
        var response = try await next(request, context)
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            defer { ticket.end() }
            try await body.write(writer)
        }
        return response
    }
}
