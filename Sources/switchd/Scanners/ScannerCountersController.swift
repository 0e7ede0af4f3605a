import Foundation
import Hummingbird
import Logging
import ScanContract
import SwitchdStore

/// `PUT /v1/scanners/{id}/counters`: a scanner reports what it has counted (``ScannerCounters``);
/// `GET /metrics` exports it per scanner, and switchd keeps the report as the scanner's health
/// (`GET /v1/scanners`). The report is the scanner's sign of life: one from a scanner that was
/// offline stores a `scannerOnline` event.
struct ScannerCountersController {
    let database: AppDatabase
    let metrics: SwitchdMetrics
    let feeds: Feeds
    let wallClock: WallClock
    let versions: ScannerVersionWatch
    let logger: Logger

    func addRoutes(to routes: Routes) {
        routes.put("/v1/scanners/{id}/counters", .reportOwnScanner, use: report)
        routes.allowOnly([.put], on: "/v1/scanners/{id}/counters")
    }

    /// 204; 404 for an unknown scanner (so only registered scanners get a label); 422 naming a
    /// negative count, a version or radio that is not well formed.
    @Sendable func report(_ request: Request, context: AppRequestContext) async throws -> Response {
        let scannerID = try context.pathScannerID()
        let counters = try await request.decodeJSON(ScannerCounters.self, context: context)
        try counters.validate()
        let back = try await database.recordScannerReport(counters, of: scannerID, at: wallClock.now())
        metrics.scanners.record(counters, from: scannerID, at: .now)
        if let back {
            logger.info("Scanner online again", metadata: ["scanner": "\(scannerID)"])
            await feeds.events.publish(upTo: back.id)
            await feeds.tagEvents.publish(upTo: back.id)
        }
        await feeds.scannerReports.bump()
        versions.saw(try await database.scannerVersionCount(), after: scannerID.rawValue, reported: counters.version)
        return Response(status: .noContent)
    }
}
