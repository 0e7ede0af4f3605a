import Positioning

/// `floorscan-evaluate select --per-site`'s output: for each train file, the fourth selection's
/// cross-validated figures of every floor and position candidate (docs/wifi-fingerprinting.md,
/// "Fourth selection"), in the chosen exponent after the fifth selection's exponent rows (each
/// exponent's own choice and its figures), and the settings the rule chose for that site.
struct SiteChoiceTable {
    var sites: [(name: String, choice: WiFiKNNLocator<Int>.SiteChoice)]

    var markdown: String {
        var lines = ["| dataset | folds | stage | candidate | mean m | floor % | chosen |", "|---|---|---|---|---|---|---|"]
        for (name, choice) in sites {
            guard let folding = choice.folding else {
                lines.append("| \(name) | too small | | given | | | yes |")
                continue
            }
            for trial in choice.representations {
                let chosen = trial.representation == choice.chosenRepresentation ? "yes" : ""
                lines.append(
                    "| \(name) | \(folding.rawValue) | exponent | \(trial.label): \(SuiteTable.fixed(trial.representation.exponent, digits: 2)), "
                        + "its choice \(Self.summary(trial.chosen)) | \(SuiteTable.fixed(trial.chosenFigures.mean, digits: 3)) | "
                        + "\(SuiteTable.fixed(trial.chosenFigures.floorHitRate * 100, digits: 2)) | \(chosen) |")
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

    /// The floor and position settings in a few words.
    static func summary(_ settings: WiFiKNNLocator<Int>.Settings) -> String {
        let ratio = settings.neighbourDistanceRatio.isFinite ? SuiteTable.fixed(settings.neighbourDistanceRatio, digits: 2) : "inf"
        return "floor \(settings.floorVoters)/\(Int(settings.floorVoteWeightPower)), "
            + "\(settings.positionFromLocations ? "locations" : "samples") \(settings.neighbours), \(ratio), power \(Int(settings.positionWeightPower))"
    }

    /// Whether `candidate` carries the chosen settings of its stage (floor: voters and power;
    /// position: everything).
    static func sameStage(_ candidate: WiFiKNNLocator<Int>.Settings, _ chosen: WiFiKNNLocator<Int>.Settings, stage: String) -> Bool {
        stage == "floor"
            ? candidate.floorVoters == chosen.floorVoters && candidate.floorVoteWeightPower == chosen.floorVoteWeightPower
            : candidate == chosen
    }
}
