/// `floorscan-evaluate select`'s output: how each dataset was grouped, every candidate's
/// cross-validated mean error and floor hit rate per dataset with its geometric-mean ratio to
/// `.standard`, and the chosen candidate.
struct SelectionTable {
    var datasets: [SelectionDataset]
    var outcome: SelectCommand.Outcome

    var markdown: String {
        var lines = [
            "Folds: " + datasets.map { "\($0.name) \($0.samples.count) rows by \($0.grouping.rawValue) (\($0.groupCount) groups)" }
                .joined(separator: "; "),
            "",
            "| candidate | " + datasets.map { "\($0.name) mean m / floor %" }.joined(separator: " | ") + " | geometric mean / standard | floor rule |",
            "|---|" + String(repeating: "---|", count: datasets.count + 2),
        ]
        for (index, score) in outcome.scores.enumerated() {
            let stage = index == 0 ? "" : index < outcome.oneStepCount ? "one step: " : "pair: "
            let cells = score.figures.map { "\(SuiteTable.fixed($0.mean, digits: 3)) / \(SuiteTable.fixed($0.floorHitRate * 100, digits: 2))" }
            lines.append(
                "| \(stage)\(score.candidate.label) | " + cells.joined(separator: " | ")
                    + " | \(SuiteTable.fixed(score.ratio, digits: 4)) | \(score.admissible ? "kept" : "fails") |")
        }
        lines += ["", "Chosen: \(outcome.chosen.candidate.label) (geometric mean \(SuiteTable.fixed(outcome.chosen.ratio, digits: 4)) of .standard's)"]
        return lines.joined(separator: "\n") + "\n"
    }
}
