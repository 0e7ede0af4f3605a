import Dispatch
import Positioning
import ScanContract
import SwitchdStore

/// Every surveyed location's expected error (``RadioMap/withExpectedErrors(quantile:estimate:settings:representation:)``),
/// estimated in the background once per survey version, so that no map request waits for it: it
/// builds the Wi-Fi locator once per location fold, which takes minutes on a map of tens of
/// thousands of samples.
///
/// Only the newest version matters: while one estimate runs, newer requests replace each other and
/// only the last one runs next; an estimate whose version was superseded while it ran is dropped.
/// ``latest`` keeps the last estimate that finished for the version it was asked for; it is
/// served, until the next one lands, for maps whose surveyed locations are the same (see
/// docs/survey-quality.md).
actor ExpectedErrorEstimates {
    /// Computes a map's expected errors (per location ID); runs outside the actor.
    typealias Estimate = @Sendable (RadioMap) async -> [Int64: ExpectedError]

    /// A finished estimate and the survey it was made from.
    struct Finished: Sendable {
        var version: SurveyVersion
        var locations: SurveyedLocations
        var errors: [Int64: ExpectedError]
    }

    private let estimate: Estimate
    private var running: SurveyVersion?
    private var pending: (version: SurveyVersion, map: RadioMap)?
    /// The last estimate that finished without being superseded; nil before the first.
    private(set) var latest: Finished?
    /// Callers of ``settled()`` waiting for the queue to drain.
    private var settledWaiters: [CheckedContinuation<Void, Never>] = []

    /// - Parameter estimate: defaults to leave-one-location-out with the standard Wi-Fi locator,
    ///   on a thread of its own (not one of Swift's cooperative threads, which serve requests).
    init(estimate: @escaping Estimate = ExpectedErrorEstimates.leaveOneLocationOut) {
        self.estimate = estimate
    }

    /// Asks for `map`'s estimate (`version` is the survey state it was built from) and returns at
    /// once. Nothing happens when that version is already estimated, running or next; otherwise it
    /// starts now, or next when another is running (replacing an older request waiting there).
    func request(_ map: RadioMap, version: SurveyVersion) {
        guard latest?.version != version, running != version, pending?.version != version else { return }
        if running != nil {
            pending = (version, map)
        } else {
            start(map, version: version)
        }
    }

    /// Returns once nothing is running or waiting to run (at once when idle).
    func settled() async {
        guard running != nil else { return }
        await withCheckedContinuation { settledWaiters.append($0) }
    }

    private func start(_ map: RadioMap, version: SurveyVersion) {
        running = version
        let estimate = estimate
        Task {
            let errors = await estimate(map)
            self.finish(version: version, locations: SurveyedLocations(map), errors: errors)
        }
    }

    private func finish(version: SurveyVersion, locations: SurveyedLocations, errors: [Int64: ExpectedError]) {
        running = nil
        if let next = pending {
            // Superseded while it ran: only the newest survey matters.
            pending = nil
            start(next.map, version: next.version)
            return
        }
        latest = Finished(version: version, locations: locations, errors: errors)
        for waiter in settledWaiters { waiter.resume() }
        settledWaiters = []
    }

    /// Leave-one-location-out with the standard Wi-Fi locator, on a Dispatch thread.
    @Sendable static func leaveOneLocationOut(_ map: RadioMap) async -> [Int64: ExpectedError] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                let rated = map.withExpectedErrors().locations.compactMap { location in
                    location.expectedError.map { (location.locationID, $0) }
                }
                continuation.resume(returning: Dictionary(uniqueKeysWithValues: rated))
            }
        }
    }
}

/// The locations of a map that carry survey scans, with where they are: an estimate made for
/// one map holds for another with the same surveyed locations until the new one is made.
struct SurveyedLocations: Hashable, Sendable {
    struct Place: Hashable, Sendable {
        var locationID: Int64
        var floorID: Int64
        var x: Double
        var y: Double
    }

    var places: [Place]

    init(_ map: RadioMap) {
        places = map.locations.filter { !$0.scans.isEmpty }
            .map { Place(locationID: $0.locationID, floorID: $0.floorID, x: $0.x, y: $0.y) }
            .sorted { $0.locationID < $1.locationID }
    }
}
