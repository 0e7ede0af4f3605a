import Hummingbird

/// Counts every request by route pattern, method and status, and times it to the response head
/// (a stream's lifetime is not its latency). The outermost middleware, so it sees the status the
/// error middleware chose. Requests that match no route are counted under `unmatched`.
///
/// Hummingbird's own `MetricsMiddleware` records into the process-wide metrics factory only;
/// this one records into the application's ``SwitchdMetrics``.
struct HTTPMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: SwitchdMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        // Read before the router's not-found responder names the path itself.
        let route = context.endpointPath ?? "unmatched"
        let status: Int
        do {
            let response = try await next(request, context)
            status = response.status.code
            record(request, route: route, status: status, since: start)
            return response
        } catch {
            status = (error as? any HTTPResponseError)?.status.code ?? HTTPResponse.Status.internalServerError.code
            record(request, route: route, status: status, since: start)
            throw error
        }
    }

    private func record(_ request: Request, route: String, status: Int, since start: ContinuousClock.Instant) {
        metrics.recordRequest(route: route, method: request.method.rawValue, status: status, duration: .now - start)
    }
}
