import Evaluation
import Positioning

/// How well each training location's expected error (``LeaveOneLocationOut`` on the training
/// part alone, as switchd estimates it on a survey) predicts the real error of test queries: each
/// test query is located on the whole training part with the Wi-Fi kNN and the settings the
/// training part chooses for itself (as scannerd's `Locator` does), and its real 2-D error is
/// paired with the expected error of the location its fix names as nearest. The leave-one-out
/// estimate uses the same chosen settings, as switchd's radio map does.
///
/// A location is a distinct (building, floor, x, y) of the training part; most rows of the
/// crowdsourced and walked sets are their own location.
struct SurveyQualityTrial {
    /// One test query's pair: what the survey expected near its fix, what it got, and what the
    /// fix itself claimed (the kNN spread, `accuracyMetres`).
    struct Pair {
        var expected: Double
        var real: Double
        var claimed: Double
    }

    var locations = 0
    var folds = 0
    var pairs: [Pair] = []
    /// Test queries without a fix, or whose nearest location has no expected error.
    var unrated = 0

    init(training: [UJIIndoorLocSample], testing: [UJIIndoorLocSample], maximumFolds: Int) {
        let records = Self.withLocationIDs(training.map(\.fingerprint))
        let estimate = LeaveOneLocationOut<Int>(maximumFolds: maximumFolds)
        let locator = WiFiKNNLocator.choosingSettings(records: records).locator
        let expected = estimate.outcomes(of: records) { WiFiKNNLocator(records: $0, settings: locator.settings) }
            .compactMapValues { ExpectedError(errors: $0.errors)?.metres }
        locations = Set(records.compactMap(\.locationID)).count
        folds = min(locations, estimate.maximumFolds)
        for sample in testing {
            guard let fix = locator.locate(sample.readings), let nearest = fix.nearestLocationID, let metres = expected[nearest] else {
                unrated += 1
                continue
            }
            let real = planarError(x: fix.estimate.x, y: fix.estimate.y, trueX: sample.longitude, trueY: sample.latitude)
            pairs.append(Pair(expected: metres, real: real, claimed: fix.estimate.accuracyMetres))
        }
    }

    /// `records` with one location ID per distinct (building, floor, x, y), numbered in order of appearance.
    static func withLocationIDs(_ records: [FingerprintRecord<Int>]) -> [FingerprintRecord<Int>] {
        struct Place: Hashable {
            var building: String
            var floor: Int64
            var x: Double
            var y: Double
        }
        var ids: [Place: Int64] = [:]
        return records.map { record in
            var record = record
            let place = Place(building: record.building, floor: record.floorID, x: record.x, y: record.y)
            let id = ids[place] ?? Int64(ids.count)
            ids[place] = id
            record.locationID = id
            return record
        }
    }

    /// Pearson's r and Spearman's ρ between the expected and the real errors.
    var correlation: (pearson: Double?, spearman: Double?) {
        let series = pairs.map { ($0.expected, $0.real) }
        return (Correlation.pearson(series), Correlation.spearman(series))
    }

    /// The share of test queries whose real error stayed within the expected error; 0.68 is
    /// calibrated (``ExpectedError/standardQuantile``).
    var withinExpected: Double { share { $0.real <= $0.expected } }

    /// The same for the fix's own claimed accuracy, for comparison.
    var withinClaimed: Double { share { $0.real <= $0.claimed } }

    var claimedSpearman: Double? { Correlation.spearman(pairs.map { ($0.claimed, $0.real) }) }

    private func share(_ holds: (Pair) -> Bool) -> Double {
        pairs.isEmpty ? .nan : Double(pairs.filter(holds).count) / Double(pairs.count)
    }
}
