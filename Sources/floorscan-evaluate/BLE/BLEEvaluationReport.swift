import Evaluation
import Foundation

/// Figures of one method on one test part, as `floorscan-evaluate` prints them.
struct BLEMethodFigures: Encodable {
    var mean: Double
    var median: Double
    var p75: Double
    var p95: Double
    var queries: Int

    init(errors: [Double]) {
        let summary = BLEErrorSummary(errors: errors)
        mean = Self.rounded(summary.mean)
        median = Self.rounded(summary.median)
        p75 = Self.rounded(summary.p75)
        p95 = Self.rounded(summary.p95)
        queries = summary.queries
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

/// Errors (metres) of every method on one test part, and the time one query took.
struct BLEPartResult: Encodable {
    var description: String
    var methods: [String: BLEMethodFigures]
    var msPerQuery: Double
}

/// What an evaluate command prints: the headline method's figures at the top level (`mean`,
/// `median`, `p75`, `p95`, `queries`, `msPerQuery`), the details beside them in the same object.
struct BLEEvaluationOutput<Details: Encodable>: Encodable {
    var headline: String
    var figures: BLEMethodFigures
    var msPerQuery: Double
    var details: Details

    private enum Keys: String, CodingKey { case headline, msPerQuery }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(headline, forKey: .headline)
        try container.encode(msPerQuery, forKey: .msPerQuery)
        try figures.encode(to: encoder)
        try details.encode(to: encoder)
    }
}

/// One JSON object on standard output, keys sorted.
func printJSONObject(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// The methods an evaluation can report; `--method` picks one or all.
enum BLEMethodName: String, CaseIterable, Encodable {
    case trilateration, fingerprint, fused, filtered
}
