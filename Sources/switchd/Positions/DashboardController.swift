import Foundation
import Hummingbird
import Positioning
import ScanContract
import SwitchdStore

/// `GET /v1/dashboard` (admin): counts, recent activity and anonymous dwell per room and item.
struct DashboardController {
    let database: AppDatabase

    func addRoutes(to routes: Routes) {
        // Counts and recent activity name scanners: the admin's.
        routes.get("/v1/dashboard", .admin, use: show)
        routes.allowOnly([.get], on: "/v1/dashboard")
    }

    /// 200 ``Dashboard`` since `?since=` (RFC 3339), else since midnight UTC today; dwell stays
    /// end after `?gap=` seconds without a position (default 120). 422 naming a bad parameter.
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let now = Date.nowInMilliseconds()
        let since = try query.date("since") ?? Self.startOfDay(now)
        let gap = try query.seconds("gap") ?? DwellCounter.defaultMaxGap
        return try .json(await database.dashboard(since: since, now: now, counter: DwellCounter(maxGap: gap)))
    }

    /// Midnight UTC of `date`'s day.
    static func startOfDay(_ date: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        return calendar.startOfDay(for: date)
    }
}
