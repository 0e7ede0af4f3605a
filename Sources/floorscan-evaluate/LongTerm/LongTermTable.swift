/// The survey-aging curve as one Markdown table: per test month, the default method beside the
/// plain kNN reference (both built once from the first month's survey), their ratio, and the
/// nearest surveyed location's distance (how far the survey grid alone keeps a perfect matcher).
struct LongTermTable {
    struct Row {
        var month: Int
        var standard: UJIIndoorLocReport
        var reference: UJIIndoorLocReport
        var nearestSurveyedMean: Double
    }

    var rows: [Row]

    static let header = """
        | month | queries | default mean m | median m | p95 m | floor % | plain kNN mean m | median m | p95 m | floor % | default / kNN | nearest surveyed location m |
        |---|---|---|---|---|---|---|---|---|---|---|---|
        """

    var markdown: String {
        let fixed = { (value: Double, digits: Int) in SuiteTable.fixed(value, digits: digits) }
        var lines = [Self.header]
        for row in rows {
            let ours = row.standard.metrics, theirs = row.reference.metrics
            let cells = [
                String(format: "%02d", row.month), "\(ours.queries)", fixed(ours.mean, 2), fixed(ours.median, 2), fixed(ours.p95, 2),
                fixed(ours.floorHitRate * 100, 2), fixed(theirs.mean, 2), fixed(theirs.median, 2), fixed(theirs.p95, 2),
                fixed(theirs.floorHitRate * 100, 2), fixed(ours.mean / theirs.mean, 3), fixed(row.nearestSurveyedMean, 2),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        if let settings = rows.first?.standard.details.settings {
            lines.append("")
            lines.append("Default settings chosen by the survey (\(settings.chosenBy ?? "given")): exponent \(fixed(settings.exponent, 2)), k \(settings.k), ratio \(settings.neighbourRatio.map { fixed($0, 2) } ?? "none"), position power \(fixed(settings.positionPower, 1)), position from \(settings.positionFrom), floor voters \(settings.floorVoters), floor vote power \(fixed(settings.floorVotePower, 1)).")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
