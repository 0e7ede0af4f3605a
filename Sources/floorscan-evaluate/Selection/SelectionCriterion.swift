import Foundation

/// The third selection's criterion (docs/wifi-fingerprinting.md): one setting for every dataset,
/// judged by the geometric mean over the datasets of its cross-validated mean error over
/// `.standard`'s, among settings that keep every dataset's cross-validated floor hit rate within
/// 0.2 points of `.standard`'s; within 1 % of the best, fewer changes win.
enum SelectionCriterion {
    /// A cross-validated floor rate may fall this far below `.standard`'s (0.2 points).
    static let floorTolerance = 0.002
    /// Within this factor of the best geometric mean, fewer changes win (1 %).
    static let tieFactor = 1.01

    /// One dataset's cross-validated figures: mean 2-D error over the answered held-out rows and
    /// the floor hit rate over all of them.
    struct Figures: Equatable, Sendable {
        var mean: Double
        var floorHitRate: Double
    }

    /// A candidate judged against `.standard`.
    struct Score: Sendable {
        var candidate: SelectionCandidate
        /// Per dataset, in the run's order.
        var figures: [Figures]
        /// Geometric mean over the datasets of the candidate's mean over `.standard`'s.
        var ratio: Double
        /// False when some dataset's floor rate fell more than `floorTolerance` below `.standard`'s.
        var admissible: Bool
    }

    /// `figures` judged against `standard`'s (the same datasets in the same order).
    static func score(_ candidate: SelectionCandidate, _ figures: [Figures], standard: [Figures]) -> Score {
        precondition(figures.count == standard.count && !figures.isEmpty, "figures for every dataset")
        let logs = zip(figures, standard).map { log($0.mean / $1.mean) }
        let admissible = zip(figures, standard).allSatisfy { $0.floorHitRate >= $1.floorHitRate - floorTolerance - 1e-12 }
        return Score(candidate: candidate, figures: figures, ratio: exp(logs.reduce(0, +) / Double(logs.count)), admissible: admissible)
    }

    /// "The best of those", read as docs/wifi-fingerprinting.md writes it down: for each setting,
    /// its one-step value of lowest ratio among the admissible ones, kept only when that ratio is
    /// below 1 (it beats `.standard`). In the order of the settings.
    static func bestOneStep(_ scores: [Score]) -> [SelectionCandidate] {
        SelectionCandidate.Setting.allCases.compactMap { setting in
            scores.filter { $0.admissible && $0.candidate.changes == [setting] && $0.ratio < 1 }
                .min { $0.ratio < $1.ratio }?.candidate
        }
    }

    /// The chosen score: among the admissible ones, those within `tieFactor` of the lowest ratio;
    /// of those, the fewest changes, then the lowest ratio, then the first listed. `.standard`
    /// (ratio 1, always admissible) must be among `scores`.
    static func choose(_ scores: [Score]) -> Score {
        let admissible = scores.filter(\.admissible)
        guard let best = admissible.map(\.ratio).min() else { preconditionFailure("no admissible score: .standard is missing") }
        let close = admissible.filter { $0.ratio <= best * tieFactor }
        return close.min { first, second in
            let (a, b) = (first.candidate.changes.count, second.candidate.changes.count)
            return a != b ? a < b : first.ratio < second.ratio
        }!
    }
}
