import Hummingbird
import Metrics
import Positioning
import ScanContract
import SwitchdStore

/// `POST /v1/locate`: the position of one scan, computed as scannerd computes it on the device
/// (the same ``Locator``, on switchd's current radio map), for phones and devices that are not
/// floorscan scanners.
struct LocateController {
    let database: AppDatabase
    let locators: LocatorCache
    let feed: SequenceFeed
    /// Counts the positions stored (`?store=true`).
    let stored: Counter
    /// Readings one request may carry (``Limits/maxLocateReadings``).
    var maxReadings = Limits.defaultMaxLocateReadings
    /// Readings each token may have located per minute.
    let budget: LocateBudget

    func addRoutes(to routes: Routes) {
        // Phones and integrators locate a scan; storing it (?store=true) is checked against the body's scannerID like an upload.
        routes.post("/v1/locate", .locate, use: locate)
        routes.allowOnly([.post], on: "/v1/locate")
    }

    /// 200 ``LocateResult``. Nothing is stored unless `?store=true`, which needs `scannerID`
    /// (a scanner token only its own; a reader token may not store: 403) and stores the
    /// position as that scanner's (`positionID`). 422 naming the field for a bad reading, more
    /// than ``maxReadings`` or a missing `scannerID`; 429 with `Retry-After` when the token's
    /// ``budget`` holds fewer readings than this request's; 409 when there is no radio map to
    /// locate with (no survey, no beacons) or nothing heard matches it.
    @Sendable func locate(_ request: Request, context: AppRequestContext) async throws -> Response {
        let store = try QueryParameters(request).bool("store") ?? false
        let body = try await request.decodeJSON(LocateRequest.self, context: context)
        try body.validate()
        guard body.measurements.count <= maxReadings else {
            throw APIError.invalidField(
                "measurements", "must hold at most \(maxReadings) readings (max-locate-readings), got \(body.measurements.count)"
            )
        }
        if let principal = context.principal, let wait = budget.spend(body.measurements.count, by: principal.tokenID) {
            throw APIError.locateBudgetSpent(perMinute: budget.perMinute, retryAfter: wait)
        }
        var scannerID: ScannerID?
        if store {
            guard let id = body.scannerID else {
                throw APIError.invalidField("scannerID", "is needed to store the position (?store=true)")
            }
            try context.requireMayActFor(id)
            scannerID = id
        }
        var locator = try await locators.current(from: database)
        guard locator.canLocate else {
            throw APIError.conflict("there is no radio map to locate with yet: survey locations or register beacons first")
        }
        let time = body.measurements.map(\.time).max() ?? .now
        guard let located = locator.locate(ScanReadings(body.measurements), at: time) else {
            throw APIError.invalidField("measurements", "nothing in this scan matches the radio map")
        }
        // The room whose outline holds the position wins over the nearest location's.
        let roomID = try await database.outlinedRoom(at: located.x, located.y, onFloor: located.floorID) ?? located.roomID
        var result = LocateResult(
            building: located.building, floor: located.floorID, x: located.x, y: located.y, roomID: roomID,
            nearestLocationID: located.nearestLocationID, accuracyMetres: located.accuracyMetres, method: located.method,
            beacons: located.beacons
        )
        if let scannerID {
            let position = try await database.createPosition(NewPosition(
                scannerID: scannerID, time: time, building: located.building, floor: located.floorID, x: located.x, y: located.y,
                roomID: located.roomID, nearestLocationID: located.nearestLocationID, accuracyMetres: located.accuracyMetres,
                method: located.method, beacons: located.beacons
            ))
            stored.increment()
            await feed.publish(upTo: position.id)
            (result.positionID, result.roomID, result.latitude, result.longitude) = (position.id, position.roomID, position.latitude, position.longitude)
        } else if let place = try await database.coordinates(floorID: located.floorID, x: located.x, y: located.y) {
            (result.latitude, result.longitude) = (place.latitude, place.longitude)
        }
        return try .json(result)
    }
}
