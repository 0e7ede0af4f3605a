import Positioning

/// `floorscan-evaluate select --per-site`'s output: for each train file, the fourth selection's
/// cross-validated figures of every floor and position candidate (docs/wifi-fingerprinting.md,
/// "Fourth selection") and the settings the rule chose for that site.
struct SiteChoiceTable {
    var sites: [(name: String, choice: WiFiKNNLocator<Int>.SiteChoice)]

    var markdown: String {
        var lines = ["| dataset | folds | stage | candidate | mean m | floor % | chosen |", "|---|---|---|---|---|---|---|"]
        for (name, choice) in sites {
            guard let folding = choice.folding else {
                lines.append("| \(name) | too small | | given | | | yes |")
                continue
            }
            let stages = [("floor", choice.floorCandidates), ("position", choice.positionCandidates)]
            for (stage, candidates) in stages {
                for candidate in candidates {
                    let chosen = Self.sameStage(candidate.settings, choice.chosen, stage: stage) ? "yes" : ""
                    lines.append(
                        "| \(name) | \(folding.rawValue) | \(stage) | \(candidate.label) | \(SuiteTable.fixed(candidate.figures.mean, digits: 3)) | "
                            + "\(SuiteTable.fixed(candidate.figures.floorHitRate * 100, digits: 2)) | \(chosen) |")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether `candidate` carries the chosen settings of its stage (floor: voters and power;
    /// position: everything).
    static func sameStage(_ candidate: WiFiKNNLocator<Int>.Settings, _ chosen: WiFiKNNLocator<Int>.Settings, stage: String) -> Bool {
        stage == "floor"
            ? candidate.floorVoters == chosen.floorVoters && candidate.floorVoteWeightPower == chosen.floorVoteWeightPower
            : candidate == chosen
    }
}
