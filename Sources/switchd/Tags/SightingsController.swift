import Hummingbird
import Metrics
import ScanContract
import SwitchdStore

/// `POST /v1/sightings`: fixed scanners report the windows they closed; switchd stores them,
/// raises missing-tag events, and locates each tag once per window when the window closes
/// (``TagWindowCloser``); keeps the telemetry that rides along and raises `batteryLow`.
struct SightingsController {
    let database: AppDatabase
    let windows: TagWindowCloser
    let tracker: TagTracker
    let feeds: Feeds
    var batteryLow = BatteryLowThreshold()

    func addRoutes(to routes: Routes) {
        routes.post("/v1/sightings", .upload, use: report)
        routes.allowOnly([.post], on: "/v1/sightings")
    }

    /// 201 ``SightingReceipt`` with the positions of the windows this batch closed (a tag's
    /// earlier window, now that a later one is reported; the position another instance stored
    /// for it when that one closed it first); 403 when a scanner token reports for
    /// another scanner; 404 for an unknown scanner; 422 naming a bad field (nothing is stored).
    /// Streams are told after the commit.
    @Sendable func report(_ request: Request, context: AppRequestContext) async throws -> Response {
        let batch = try await request.decodeJSON(SightingBatch.self, context: context)
        try context.requireMayActFor(batch.scannerID)
        let ingest = try await database.ingestSightings(batch, reading: tracker.settings.rssiStatistic, batteryLow: batteryLow)
        if ingest.beaconsHeard { await tracker.beaconsHeard() }
        if !(batch.telemetry ?? []).isEmpty { await feeds.telemetry.bump() }
        if let last = ingest.presenceEvents.last {
            // One row: the presence event is its tag's event too.
            await feeds.events.publish(upTo: last.id)
            await feeds.tagEvents.publish(upTo: last.id)
            for event in ingest.presenceEvents where event.kind == .missingTagHeard {
                context.logger.notice("Missing tag heard", metadata: ["tag": "\(event.tagID.map(String.init) ?? "none")", "scanner": "\(event.scannerID.map(\.rawValue) ?? "none")"])
            }
            for event in ingest.presenceEvents where event.kind == .batteryLow {
                context.logger.warning("Battery low", metadata: [
                    "tag": "\(event.tagID.map(String.init) ?? "none")", "beacon": "\(event.beaconID.map(String.init) ?? "none")",
                ])
            }
        }
        let positions = try await windows.heard(ingest.tagsHeard, storedUpTo: ingest.lastSightingID)
        if let last = positions.last {
            await feeds.tagPositions.publish(upTo: last.id)
        }
        return try .json(SightingReceipt(stored: ingest.stored, ignored: ingest.ignored, positions: positions), status: .created)
    }
}
