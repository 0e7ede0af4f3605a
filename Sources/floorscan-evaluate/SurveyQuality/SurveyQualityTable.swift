import Evaluation

/// `floorscan-evaluate suite --survey-quality`'s results as one Markdown table, a row per dataset.
struct SurveyQualityTable {
    struct Row {
        var name: String
        /// Nil when the dataset's files were not found.
        var trial: SurveyQualityTrial?
        var seconds: Double
    }

    var rows: [Row]

    static let header = """
        | dataset | train locations (folds) | test queries rated (not) | Pearson r | Spearman ρ | within expected (aim 68 %) | median expected m | median real m | fix's own accuracy: ρ / within | s |
        |---|---|---|---|---|---|---|---|---|---|
        """

    var markdown: String {
        var lines = [Self.header]
        let fixed = SuiteTable.fixed
        for row in rows {
            guard let trial = row.trial else {
                lines.append("| \(row.name) | skipped: not found | | | | | | | | |")
                continue
            }
            let (pearson, spearman) = trial.correlation
            let expected = ErrorSummary(errors: trial.pairs.map(\.expected)), real = ErrorSummary(errors: trial.pairs.map(\.real))
            let cells = [
                row.name, "\(trial.locations) (\(trial.folds))", "\(trial.pairs.count) (\(trial.unrated))",
                fixed(pearson ?? .nan, 2), fixed(spearman ?? .nan, 2), fixed(trial.withinExpected * 100, 1) + " %",
                fixed(expected?.median ?? .nan, 2), fixed(real?.median ?? .nan, 2),
                "\(fixed(trial.claimedSpearman ?? .nan, 2)) / \(fixed(trial.withinClaimed * 100, 1)) %", fixed(row.seconds, 0),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
