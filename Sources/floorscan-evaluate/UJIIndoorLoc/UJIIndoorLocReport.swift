import Positioning

/// The JSON printed by `floorscan-evaluate ujiindoorloc`: the metrics at the top level, then
/// method, settings, timing and memory.
struct UJIIndoorLocReport: Encodable {
    struct Settings: Encodable {
        var k: Int
        var floorVoters: Int
        var buildingVoters: Int
        var floorVotePower: Double
        var positionPower: Double
        /// nil when every one of the k neighbours is averaged (JSON has no infinity).
        var neighbourRatio: Double?
        var exponent: Double
        var weakestDbm: Double
        var floorDbm: Double
        var distance = "sorensen"
        var buildingAndFloorFrom = "location means"
        var positionFrom: String
        /// "given", or the survey's own cross-validation and how it cut the folds.
        var chosenBy: String?

        init(_ settings: WiFiKNNLocator<Int>.Settings, _ representation: PoweredRSSI, chosenBy: String? = nil) {
            positionFrom = settings.positionFromLocations ? "location means" : "samples"
            self.chosenBy = chosenBy
            k = settings.neighbours
            floorVoters = settings.floorVoters
            buildingVoters = settings.buildingVoters
            floorVotePower = settings.floorVoteWeightPower
            positionPower = settings.positionWeightPower
            neighbourRatio = settings.neighbourDistanceRatio.isFinite ? settings.neighbourDistanceRatio : nil
            exponent = representation.exponent
            weakestDbm = representation.weakestHeardDBm
            floorDbm = representation.floorDBm
        }
    }

    struct Details: Encodable {
        var method: String
        var settings: Settings?
        /// "test file", or "leave-one-user-out (-phone-out) on the training file".
        var testedOn: String
        /// Cross-validation only: the held-out samples with a training location of the same
        /// floor within 5 m, the part of the pseudo-test that resembles the validation set.
        var covered: UJIIndoorLocMetrics?
        /// Cross-validation only: each held-out user (phone) alone, in order of its id.
        var heldOutGroups: [HeldOutGroup]?
        /// Median time of one query, single thread.
        var msPerQuery: Double
        var trainingSamples: Int
        var fingerprints: Int
        var accessPoints: Int
        var buildSeconds: Double
        var indexBytes: Int
        var maxRSSBytes: Int?
    }

    /// One fold of a cross-validation: the user or phone held out, all its samples and the covered ones.
    struct HeldOutGroup: Encodable {
        var id: Int
        var all: UJIIndoorLocMetrics
        var covered: UJIIndoorLocMetrics
    }

    var metrics: UJIIndoorLocMetrics
    var details: Details

    func encode(to encoder: any Encoder) throws {
        try metrics.encode(to: encoder)
        try details.encode(to: encoder)
    }
}
