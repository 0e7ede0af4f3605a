import Foundation

/// The suite's results as one Markdown table: a row per dataset (ours beside the kNN reference and
/// the published best) and a summary row, the geometric mean over the datasets run of our mean
/// error divided by the reference's (below 1 is better than the reference).
struct SuiteTable {
    struct Row {
        var dataset: SuiteDataset
        /// Nil when the dataset's files were not found.
        var report: UJIIndoorLocReport?
    }

    var rows: [Row]

    static let header = """
        | dataset | queries (unanswered) | mean m | median m | p95 m | floor % | building % | ms/query | build s | kNN ref mean m / floor % | ours / ref | published best |
        |---|---|---|---|---|---|---|---|---|---|---|---|
        """

    /// Geometric mean of our mean error over the reference's, over the rows that ran; nil when none did.
    var geometricMeanRatio: Double? {
        let ratios = rows.compactMap { row in row.report.map { $0.metrics.mean / row.dataset.referenceMean } }
        guard !ratios.isEmpty else { return nil }
        return exp(ratios.map { log($0) }.reduce(0, +) / Double(ratios.count))
    }

    var markdown: String {
        var lines = [Self.header]
        for row in rows {
            let dataset = row.dataset
            let reference = "\(Self.fixed(dataset.referenceMean)) / \(Self.fixed(dataset.referenceFloorHitRate * 100))"
            let published = dataset.publishedBest ?? "—"
            guard let report = row.report else {
                lines.append("| \(dataset.name) | skipped: not found | | | | | | | | \(reference) | | \(published) |")
                continue
            }
            let metrics = report.metrics, details = report.details
            let cells = [
                dataset.name, "\(metrics.queries) (\(metrics.unanswered))", Self.fixed(metrics.mean), Self.fixed(metrics.median),
                Self.fixed(metrics.p95), Self.fixed(metrics.floorHitRate * 100), Self.fixed(metrics.buildingHitRate * 100),
                Self.fixed(details.msPerQuery, digits: 3), Self.fixed(details.buildSeconds, digits: 3), reference,
                Self.fixed(metrics.mean / dataset.referenceMean), published,
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        let summary = geometricMeanRatio.map { Self.fixed($0) } ?? "—"
        lines.append("| geometric mean | | | | | | | | | | \(summary) | |")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `value` with `digits` decimals ("nan" for no value).
    static func fixed(_ value: Double, digits: Int = 2) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "nan"
    }
}
