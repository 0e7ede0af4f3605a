@testable import Evaluation
import Testing

@Suite("Error summaries and hit rates")
struct ErrorSummaryTests {
    @Test func percentilesInterpolateBetweenRanks() throws {
        // Ranks 0…3; p75 sits at rank 2.25 and p95 at rank 2.85.
        let summary = try #require(ErrorSummary(errors: [4, 1, 3, 2]))
        #expect(summary.mean == 2.5)
        #expect(summary.median == 2.5)
        #expect(abs(summary.p75 - 3.25) < 1e-12)
        #expect(abs(summary.p95 - 3.85) < 1e-12)
        #expect(summary.max == 4)
        #expect(summary.count == 4)
    }

    @Test func nothingToSummariseIsNil() {
        #expect(ErrorSummary(errors: []) == nil)
        #expect(ErrorSummary(errors: [7])?.p95 == 7)
    }

    @Test func hitRateCountsHits() {
        var rate = HitRate()
        #expect(rate.rate == 0)
        for hit in [true, false, true, true] { rate.record(hit) }
        #expect(rate.rate == 0.75)
        #expect(rate.trials == 4)
    }
}
