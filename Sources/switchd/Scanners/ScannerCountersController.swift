import Hummingbird
import ScanContract
import SwitchdStore

/// `PUT /v1/scanners/{id}/counters`: a scanner reports what it has counted (``ScannerCounters``);
/// `GET /metrics` exports it per scanner.
struct ScannerCountersController {
    let database: AppDatabase
    let metrics: SwitchdMetrics

    func addRoutes(to routes: Routes) {
        routes.put("/v1/scanners/{id}/counters", .reportOwnScanner, use: report)
        routes.allowOnly([.put], on: "/v1/scanners/{id}/counters")
    }

    /// 204; 404 for an unknown scanner (so only registered scanners get a label); 422 naming a
    /// negative count.
    @Sendable func report(_ request: Request, context: AppRequestContext) async throws -> Response {
        let scannerID = try context.pathScannerID()
        let counters = try await request.decodeJSON(ScannerCounters.self, context: context)
        try counters.validate()
        _ = try await database.scanner(scannerID)
        metrics.scanners.record(counters, from: scannerID, at: .now)
        return Response(status: .noContent)
    }
}
