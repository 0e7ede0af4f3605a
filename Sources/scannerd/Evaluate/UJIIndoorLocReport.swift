import Scan

/// The JSON printed by `scannerd evaluate ujiindoorloc`. Errors in EPSG:3857 metres; rates 0…1.
struct UJIIndoorLocReport: Encodable {
    struct Settings: Encodable {
        var k: Int
        var floorVoters: Int
        var buildingVoters: Int
        var exponent: Double
        var weakestDbm: Double
        var floorDbm: Double
        var distance = "sorensen"

        init(_ settings: WiFiKNNLocator<Int>.Settings, _ representation: PoweredRSSI) {
            k = settings.neighbours
            floorVoters = settings.floorVoters
            buildingVoters = settings.buildingVoters
            exponent = representation.exponent
            weakestDbm = representation.weakestHeardDBm
            floorDbm = representation.floorDBm
        }
    }

    var method: String
    var settings: Settings?
    var queries: Int
    var unanswered: Int
    var mean: Double
    var median: Double
    var p75: Double
    var p95: Double
    var max: Double
    var buildingHitRate: Double
    var floorHitRate: Double
    /// Median time of one query, single thread.
    var msPerQuery: Double
    var trainingSamples: Int
    var fingerprints: Int
    var accessPoints: Int
    var buildSeconds: Double
    var indexBytes: Int
    var maxRSSBytes: Int?

    init(
        outcome: UJIIndoorLocTrial, method: String, settings: Settings?, trainingSamples: Int, fingerprints: Int,
        accessPoints: Int, buildSeconds: Double, indexBytes: Int, maxRSSBytes: Int?
    ) {
        let summary = ErrorSummary(errors: outcome.errors)
        self.method = method
        self.settings = settings
        queries = outcome.floor.trials
        unanswered = outcome.unanswered
        mean = summary?.mean ?? .nan
        median = summary?.median ?? .nan
        p75 = summary?.p75 ?? .nan
        p95 = summary?.p95 ?? .nan
        max = summary?.max ?? .nan
        buildingHitRate = outcome.building.rate
        floorHitRate = outcome.floor.rate
        msPerQuery = ErrorSummary.percentile(50, ofSorted: outcome.queryMilliseconds.sorted())
        self.trainingSamples = trainingSamples
        self.fingerprints = fingerprints
        self.accessPoints = accessPoints
        self.buildSeconds = buildSeconds
        self.indexBytes = indexBytes
        self.maxRSSBytes = maxRSSBytes
    }
}
