@testable import Evaluation
import Testing

@Suite("BLE error summary")
struct BLEErrorSummaryTests {
    @Test func percentilesInterpolateBetweenOrderStatistics() {
        let summary = BLEErrorSummary(errors: [4, 1, 3, 2, 5])
        #expect(summary.mean == 3 && summary.median == 3 && summary.p75 == 4 && summary.queries == 5)
        #expect(abs(summary.p95 - 4.8) < 1e-12)
        #expect(BLEErrorSummary(errors: []).mean == 0)
    }
}
