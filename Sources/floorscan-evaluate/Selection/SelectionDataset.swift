import Evaluation
import Positioning

/// One training file cut into the third selection's folds, and its rows positioned fold by fold.
struct SelectionDataset {
    var name: String
    var samples: [UJIIndoorLocSample]
    var grouping: CrossValidationFolds.Grouping
    /// How many groups the rule made.
    var groupCount: Int
    /// Each sample's fold.
    var folds: [Int]

    /// Groups `samples` (by `trajectories` when given, one per sample) and assigns the folds.
    /// - Throws: `UJIIndoorLocEvaluationError` when the trajectories do not match the samples one to one.
    init(name: String, samples: [UJIIndoorLocSample], trajectories: [String]?) throws(UJIIndoorLocEvaluationError) {
        if let trajectories, trajectories.count != samples.count {
            throw UJIIndoorLocEvaluationError(
                description: "\(name): \(trajectories.count) trajectory rows for \(samples.count) training rows")
        }
        self.name = name
        self.samples = samples
        let (grouping, groups) = CrossValidationFolds.groups(of: samples, trajectories: trajectories)
        self.grouping = grouping
        groupCount = Set(groups).count
        folds = CrossValidationFolds.folds(of: groups)
    }

    /// The cross-validated figures of every candidate in `candidates`, which must share one
    /// exponent: each fold's indexes are built once from the other folds and searched with each
    /// candidate's settings; every row is positioned once per candidate.
    func figures(of candidates: [SelectionCandidate]) -> [SelectionCriterion.Figures] {
        guard let representation = candidates.first?.representation else { return [] }
        precondition(candidates.allSatisfy { $0.exponent == candidates[0].exponent }, "one exponent per call")
        var trials = Array(repeating: UJIIndoorLocTrial(), count: candidates.count)
        for fold in Set(folds).sorted() {
            let kept = zip(samples, folds).filter { $0.1 != fold }.map(\.0.fingerprint)
            let held = zip(samples, folds).filter { $0.1 == fold }.map(\.0)
            guard !kept.isEmpty else { continue }
            let built = WiFiKNNLocator(records: kept, representation: representation, settings: candidates[0].settings)
            for (index, candidate) in candidates.enumerated() {
                trials[index].test(built.with(candidate.settings), on: held)
            }
        }
        return trials.map { trial in
            let metrics = UJIIndoorLocMetrics(trial)
            return SelectionCriterion.Figures(mean: metrics.mean, floorHitRate: metrics.floorHitRate)
        }
    }
}
