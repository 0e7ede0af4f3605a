@testable import Evaluation
import Testing

@Suite struct CorrelationTests {
    @Test func pearsonIsOneOnALineAndMinusOneOnAFallingLine() throws {
        #expect(abs(try #require(Correlation.pearson([(1, 3), (2, 5), (4, 9)])) - 1) < 1e-12)
        #expect(abs(try #require(Correlation.pearson([(1, 3), (2, 1), (3, -1)])) + 1) < 1e-12)
    }

    @Test func pearsonByHand() throws {
        // Means 2 and 2; deviations (−1, 0, 1) and (−1, 1, 0): covariance 1, variances 2 and 2.
        #expect(abs(try #require(Correlation.pearson([(1, 1), (2, 3), (3, 2)])) - 0.5) < 1e-12)
    }

    @Test func spearmanGoesByRankSoOneHugeValueDoesNotDecide() throws {
        let pairs: [(Double, Double)] = [(1, 1), (2, 2), (3, 3), (4, 1000)]
        #expect(try #require(Correlation.spearman(pairs)) == 1)
        #expect(try #require(Correlation.pearson(pairs)) < 0.8)
    }

    @Test func tiesShareTheirMeanRank() {
        #expect(Correlation.ranks([10, 20, 10, 30]) == [1.5, 3, 1.5, 4])
    }

    @Test func undefinedForAConstantSeriesOrFewerThanTwoPairs() {
        #expect(Correlation.pearson([(1, 1), (1, 2)]) == nil)
        #expect(Correlation.spearman([(1, 2)]) == nil)
        #expect(Correlation.pearson([]) == nil)
    }
}
