@testable import Positioning
import Testing

@Suite("Wi-Fi kNN: the survey chooses its own settings (fourth selection)")
struct WiFiSiteChoiceTests {
    /// (rssi + 100) / 100, so distances can be worked out by hand.
    let linear = PoweredRSSI(floorDBm: -100, exponent: 1, weakestHeardDBm: -100)

    func record(_ x: Double, _ readings: [Int: Double], floor: Int64 = 1) -> FingerprintRecord<Int> {
        FingerprintRecord(building: "A", floorID: floor, x: x, y: 0, readings: readings)
    }

    @Test func positionFromLocationsAveragesTheNearestLocationMeans() throws {
        // Location x=0 has samples 0.55 and 0.45 (mean 0.5), x=10 has 0.35 and 0.25 (mean 0.3).
        // Scan 0.4: the nearest sample is 0.45 at x=0; the location means are at d = 0.1 / 0.9
        // and 0.1 / 0.7, weighted 9 and 7.
        let records = [record(0, [1: -45]), record(0, [1: -55]), record(10, [1: -65]), record(10, [1: -75])]
        func x(fromLocations: Bool) throws -> Double {
            let knn = WiFiKNNLocator(
                records: records, representation: linear,
                settings: .init(buildingVoters: 1, floorVoters: 1, neighbours: fromLocations ? 2 : 1, positionFromLocations: fromLocations))
            return try #require(knn.locate([1: -60])).estimate.x
        }
        #expect(try x(fromLocations: false) == 0)
        #expect(abs(try x(fromLocations: true) - 10 * 7 / 16) < 1e-4)
    }

    @Test func aSurveySampledSeveralTimesPerPointIsCutByWholeLocations() throws {
        let records = (0..<30).map { record(Double($0 / 3) * 4, [1: -40 - Double($0)]) }
        let (folding, folds) = try #require(WiFiKNNLocator<Int>.SiteChoice.folds(of: records))
        #expect(folding == .locations)
        #expect(folds == (0..<30).map { ($0 / 3) % 5 })
    }

    @Test func aWalkedSurveyIsCutIntoConsecutiveBlocks() throws {
        let records = (0..<10).map { record(Double($0), [1: -40 - Double($0)]) }
        let (folding, folds) = try #require(WiFiKNNLocator<Int>.SiteChoice.folds(of: records))
        #expect(folding == .blocks)
        #expect(folds == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
    }

    @Test func aSurveyOfFewerThanFiveLocationsKeepsTheGivenSettings() {
        let records = (0..<8).map { record(Double($0 / 2), [1: -40 - Double($0)]) }
        let choice = WiFiKNNLocator<Int>.SiteChoice(records: records, representation: linear)
        #expect(choice.folding == nil)
        #expect(choice.chosen == .standard)
        #expect(choice.floorCandidates.isEmpty && choice.positionCandidates.isEmpty)
    }

    @Test func theChoiceOnlyLeavesTheGivenSettingsForAClearCrossValidatedGain() throws {
        // A corridor of two floors surveyed every 3 m, 4 samples per point, three radios along it.
        var records: [FingerprintRecord<Int>] = []
        for floor in Int64(1)...2 {
            for point in 0..<20 {
                let x = Double(point) * 3
                for sample in 0..<4 {
                    let jitter = Double((point * 7 + sample * 3) % 5) - 2
                    let readings = [0: 0.0, 30: 0, 60: 0].reduce(into: [Int: Double]()) { readings, radio in
                        let ap = radio.key + Int(floor - 1) * 100
                        readings[ap] = -35 - 0.8 * abs(x - Double(radio.key)) + jitter
                        readings[radio.key + Int(2 - floor) * 100] = -80 - 0.8 * abs(x - Double(radio.key)) + jitter
                    }
                    records.append(FingerprintRecord(building: "A", floorID: floor, x: x, y: 0, readings: readings))
                }
            }
        }
        let (locator, choice) = WiFiKNNLocator.choosingSettings(records: records)
        #expect(choice.folding == .locations)
        #expect(choice.floorCandidates.count == 5)
        #expect(choice.positionCandidates.count == 9)
        #expect(locator.settings == choice.chosen)
        let given = try #require(choice.positionCandidates.first)
        let chosen = try #require(choice.positionCandidates.first { $0.settings == choice.chosen })
        if chosen.label != given.label {
            #expect(chosen.figures.mean < 0.99 * given.figures.mean)
        }
        #expect(choice.positionCandidates.allSatisfy { $0.figures.mean >= chosen.figures.mean || $0.figures.mean >= 0.99 * given.figures.mean })
    }

    /// A two-floor corridor, 20 points 3 m apart per floor, `samples` scans per point, three radios per floor.
    func corridor(samples: Int) -> [FingerprintRecord<Int>] {
        var records: [FingerprintRecord<Int>] = []
        for floor in Int64(1)...2 {
            for point in 0..<20 {
                let x = Double(point) * 3
                for sample in 0..<samples {
                    let jitter = Double((point * 7 + sample * 3) % 5) - 2
                    let readings = [0: 0.0, 30: 0, 60: 0].reduce(into: [Int: Double]()) { readings, radio in
                        readings[radio.key + Int(floor - 1) * 100] = -35 - 0.8 * abs(x - Double(radio.key)) + jitter
                        readings[radio.key + Int(2 - floor) * 100] = -80 - 0.8 * abs(x - Double(radio.key)) + jitter
                    }
                    records.append(FingerprintRecord(building: "A", floorID: floor, x: x, y: 0, readings: readings))
                }
            }
        }
        return records
    }

    @Test func theExponentStageTriesTheGivenExponentThenThreeQuartersAndFiveQuartersOfIt() throws {
        let (locator, choice) = WiFiKNNLocator.choosingSettings(records: corridor(samples: 4))
        #expect(choice.representations.map(\.label) == ["given", "exponent × 0.75", "exponent × 1.25"])
        #expect(choice.representations.map(\.representation.exponent) == [2, 1.5, 2.5])
        #expect(choice.representations.allSatisfy { $0.floorCandidates.count == 5 && $0.positionCandidates.count == 9 })
        // The locator is built in the chosen representation, with the chosen settings of that exponent's stages.
        #expect(locator.samples.representation == choice.chosenRepresentation)
        #expect(locator.locations.representation == choice.chosenRepresentation)
        let picked = try #require(choice.representations.first { $0.representation == choice.chosenRepresentation })
        #expect(picked.chosen == choice.chosen)
        #expect(picked.positionCandidates.map(\.label) == choice.positionCandidates.map(\.label))
    }

    @Test func anotherExponentIsTakenOnlyForAOnePercentGainWithoutLosingTheFloor() throws {
        let choice = WiFiKNNLocator<Int>.SiteChoice(records: corridor(samples: 4))
        let given = try #require(choice.representations.first).chosenFigures
        let admissible = choice.representations.dropFirst().filter { $0.chosenFigures.floorHitRate >= given.floorHitRate - 0.002 - 1e-12 }
        let best = admissible.min { $0.chosenFigures.mean < $1.chosenFigures.mean }
        if let best, best.chosenFigures.mean < 0.99 * given.mean {
            #expect(choice.chosenRepresentation == best.representation)
        } else {
            #expect(choice.chosenRepresentation == .standard)
        }
        // Not vacuous: the exponents give different cross-validated means.
        #expect(Set(choice.representations.map(\.chosenFigures.mean)).count > 1)
    }

    @Test func aSurveyOfMoreThanFiveThousandRecordsKeepsTheGivenExponent() {
        // 2 floors × 20 points × 126 scans = 5,040 records.
        let records = corridor(samples: 126)
        #expect(records.count > WiFiKNNLocator<Int>.SiteChoice.exponentStageLimit)
        let choice = WiFiKNNLocator<Int>.SiteChoice(records: records)
        #expect(choice.representations.map(\.label) == ["given"])
        #expect(choice.chosenRepresentation == .standard)
    }
}
