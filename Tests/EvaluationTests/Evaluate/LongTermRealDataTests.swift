import Foundation
import Harness
import Testing
@testable import floorscan_evaluate

/// `longterm` on the real uji-library-longterm folder, when it is on this machine: the evaluator's
/// plain kNN reproduces the folder's own `knn_reference.jsonl` (made outside this code) month by
/// month to within 5 mm (equal distances may rank otherwise there; its means are rounded to
/// 1 mm), and the default answers every scan. No figure of the default is asserted beyond that
/// (docs/benchmarks/accuracy.md has them).
@Suite struct LongTermRealDataTests {
    struct ReferenceLine: Decodable {
        var dataset: String
        var mean_m: Double
        var floor_hit_rate: Double
    }

    @Test(.enabled(
        if: PublicData.has("uji-library-longterm/month01_train.csv", "uji-library-longterm/knn_reference.jsonl"),
        Comment(rawValue: PublicData.missing("uji-library-longterm/month01_train.csv", "uji-library-longterm/knn_reference.jsonl"))
    ))
    func thePlainKNNMatchesTheFoldersReference() throws {
        let lines = String(decoding: try PublicData.bytes("uji-library-longterm/knn_reference.jsonl"), as: UTF8.self)
            .split(separator: "\n")
        let references = try lines.map { try JSONDecoder().decode(ReferenceLine.self, from: Data($0.utf8)) }
        let rows = try LongTermCommand.parse(["--data", PublicData.path("uji-library-longterm")]).evaluate()
        #expect(rows.map { String(format: "month%02d", $0.month) } == references.map(\.dataset))
        for (row, reference) in zip(rows, references) {
            #expect(abs(row.reference.metrics.mean - reference.mean_m) < 0.005, "\(reference.dataset)")
            #expect(abs(row.reference.metrics.floorHitRate - reference.floor_hit_rate) < 0.0001, "\(reference.dataset)")
            #expect(row.standard.metrics.unanswered == 0)
        }
    }
}
