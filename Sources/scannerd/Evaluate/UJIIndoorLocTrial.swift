import Scan

/// Positions every test sample one at a time, on this thread, timing each query alone.
struct UJIIndoorLocTrial {
    var errors: [Double] = []
    var building = HitRate()
    var floor = HitRate()
    /// Samples the method gave no answer for (no access point in common with the survey); they
    /// count as misses of building and floor and are left out of the errors.
    var unanswered = 0
    var queryMilliseconds: [Double] = []

    static func run(_ locator: any WiFiLocator<Int>, on samples: [UJIIndoorLocSample]) -> UJIIndoorLocTrial {
        var trial = UJIIndoorLocTrial()
        trial.errors.reserveCapacity(samples.count)
        trial.queryMilliseconds.reserveCapacity(samples.count)
        let clock = ContinuousClock()
        for sample in samples {
            var fix: WiFiFix?
            let elapsed = clock.measure { fix = locator.locate(sample.readings) }
            trial.queryMilliseconds.append(elapsed.seconds * 1000)
            guard let fix else {
                trial.unanswered += 1
                trial.building.record(false)
                trial.floor.record(false)
                continue
            }
            trial.building.record(fix.building == String(sample.buildingID))
            trial.floor.record(fix.building == String(sample.buildingID) && fix.estimate.floorID == Int64(sample.floor))
            trial.errors.append(planarError(
                x: fix.estimate.x, y: fix.estimate.y, trueX: sample.longitude, trueY: sample.latitude))
        }
        return trial
    }
}
