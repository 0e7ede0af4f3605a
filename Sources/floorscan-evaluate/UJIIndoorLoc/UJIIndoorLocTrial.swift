import Evaluation
import Positioning

/// Positions test samples one at a time, on this thread, timing each query alone.
struct UJIIndoorLocTrial {
    var errors: [Double] = []
    var building = HitRate()
    var floor = HitRate()
    /// Samples the method gave no answer for (no access point in common with the survey); they
    /// count as misses of building and floor and are left out of the errors.
    var unanswered = 0
    var queryMilliseconds: [Double] = []

    /// Adds another trial's outcomes to this one's.
    mutating func add(_ other: UJIIndoorLocTrial) {
        errors += other.errors
        building.add(other.building)
        floor.add(other.floor)
        unanswered += other.unanswered
        queryMilliseconds += other.queryMilliseconds
    }

    /// Adds the outcome of positioning every sample with `locator`.
    mutating func test(_ locator: any WiFiLocator<Int>, on samples: [UJIIndoorLocSample]) {
        let clock = ContinuousClock()
        for sample in samples {
            var fix: WiFiFix?
            let elapsed = clock.measure { fix = locator.locate(sample.readings) }
            queryMilliseconds.append(elapsed / .milliseconds(1))
            guard let fix else {
                unanswered += 1
                building.record(false)
                floor.record(false)
                continue
            }
            let rightBuilding = fix.building == String(sample.buildingID)
            building.record(rightBuilding)
            floor.record(rightBuilding && fix.estimate.floorID == Int64(sample.floor))
            errors.append(planarError(x: fix.estimate.x, y: fix.estimate.y, trueX: sample.longitude, trueY: sample.latitude))
        }
    }
}

/// The accuracy figures of a trial, as printed (errors in the dataset's EPSG:3857 metres).
struct UJIIndoorLocMetrics: Encodable {
    var queries: Int
    var unanswered: Int
    var mean: Double
    var median: Double
    var p75: Double
    var p95: Double
    var max: Double
    var buildingHitRate: Double
    var floorHitRate: Double

    init(_ trial: UJIIndoorLocTrial) {
        let summary = ErrorSummary(errors: trial.errors)
        queries = trial.floor.trials
        unanswered = trial.unanswered
        mean = summary?.mean ?? .nan
        median = summary?.median ?? .nan
        p75 = summary?.p75 ?? .nan
        p95 = summary?.p95 ?? .nan
        max = summary?.max ?? .nan
        buildingHitRate = trial.building.rate
        floorHitRate = trial.floor.rate
    }
}
