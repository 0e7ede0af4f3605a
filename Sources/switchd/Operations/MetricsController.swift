import Hummingbird
import SwitchdStore

/// `GET /metrics`: every switchd metric, and what scanners reported, as Prometheus text.
struct MetricsController {
    let database: AppDatabase
    let metrics: SwitchdMetrics

    func addRoutes(to routes: Routes) {
        // A Prometheus scraper is given a reader token.
        routes.get("/metrics", .read, use: scrape)
        routes.allowOnly([.get], on: "/metrics")
    }

    /// Always answers 200: when the database cannot tell its size, the size is left as it was
    /// and the failure logged, so a broken database still shows in the request counts.
    @Sendable func scrape(_ request: Request, context: AppRequestContext) async throws -> Response {
        do {
            metrics.databaseSize.record(try await database.sizeInBytes())
        } catch {
            context.logger.warning("Could not read the database size for /metrics", metadata: ["error": "\(error)"])
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.render()))
        )
    }
}
