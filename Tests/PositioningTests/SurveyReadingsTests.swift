@testable import Positioning
import Testing

/// The site choice builds each fold's indexes from the whole survey's readings, worked out once,
/// and turns held-out records into scans the same way. That must give what the fold's records
/// alone give, value for value, or the choice (and so every figure) would move.
@Suite("Survey readings: a fold's indexes and scans equal those of its records alone")
struct SurveyReadingsTests {
    /// Points sampled three times on two floors of two buildings, with radios some samples miss,
    /// readings too weak to count, and radios heard once only: locations are groups of samples.
    static func records() -> [FingerprintRecord<Int>] {
        var generator = SeededGenerator(seed: 34)
        var records: [FingerprintRecord<Int>] = []
        for building in ["B", "A"] {
            for floor in Int64(0)...1 {
                for point in 0..<20 {
                    let x = Double(point % 5) * 4, y = Double(point / 5) * 4
                    for _ in 0..<3 {
                        var readings: [Int: Double] = [:]
                        for radio in 0..<14 where Double.random(in: 0...1, using: &generator) < 0.7 {
                            let key = (radio * 37 + Int(floor) * 500 + (building == "A" ? 0 : 1000)) % 1999
                            readings[key] = Double.random(in: -110 ... -35, using: &generator)
                        }
                        if Double.random(in: 0...1, using: &generator) < 0.05 { readings[5000 + records.count] = -60 }
                        records.append(FingerprintRecord(building: building, floorID: floor, x: x, y: y, readings: readings))
                    }
                }
            }
        }
        return records
    }

    /// Every array the search reads, so that two indexes agree on all of them or differ.
    static func contents(_ index: FingerprintIndex<Int>) -> [String] {
        [
            "\(index.representation)", "\(index.buildings)", "\(index.buildingOf)", "\(index.floorOf)", "\(index.xOf)",
            "\(index.yOf)", "\(index.locationOf)", "\(index.total)", "\(index.column.sorted { $0.key < $1.key })",
            "\(index.listStart)", "\(index.listRecord)", "\(index.listValue)", "\(index.listDBm)",
            "\(index.cells.building)", "\(index.cells.floor)", "\(index.cells.smallestTotal)", "\(index.cells.largestTotal)",
            "\(index.cells.memberStart)", "\(index.cells.member)", "\(index.cells.memberRows.start)",
            "\(index.cells.memberRows.column)", "\(index.cells.memberRows.value)", "\(index.cells.memberTotal)",
            "\(index.cells.listStart)", "\(index.cells.listCell)", "\(index.cells.listLargest)", "\(index.memoryBytes)",
        ]
    }

    @Test(arguments: [PoweredRSSI.standard, PoweredRSSI(floorDBm: -100, exponent: 1.5, weakestHeardDBm: -95)])
    func everyFoldsIndexesAndScansAreThoseOfItsRecordsAlone(representation: PoweredRSSI) {
        let records = Self.records()
        let survey = SurveyReadings(records: records, representation: representation)
        // Whole locations per fold, and consecutive blocks that split locations between folds.
        let foldings = [records.indices.map { ($0 / 3) % 5 }, records.indices.map { $0 * 5 / records.count }]
        var compared = 0
        for fold in foldings {
            for number in 0..<5 {
                let kept = fold.indices.filter { fold[$0] != number }
                let alone = kept.map { records[$0] }
                for grouping in [FingerprintIndex<Int>.Grouping.eachSample, .meanPerLocation] {
                    let fromSurvey = FingerprintIndex(survey: survey, records: records, rows: kept, grouping: grouping)
                    let fromRecords = FingerprintIndex(records: alone, representation: representation, grouping: grouping)
                    #expect(Self.contents(fromSurvey) == Self.contents(fromRecords))
                    compared += 1
                }
                let index = FingerprintIndex(records: alone, representation: representation)
                let numbering = survey.numbering(of: kept)
                for held in fold.indices where fold[held] == number {
                    let scan = survey.heard(held, numberedBy: numbering)
                    let expected = index.heardRadios(in: records[held].readings)
                    #expect(scan.map(\.column) == expected.map(\.column))
                    #expect(scan.map(\.value) == expected.map(\.value))
                }
            }
        }
        #expect(compared == 20)
        // Not vacuous: the folds hear different radios, and locations are groups of samples.
        let radioCounts = Set((0..<5).map { number in survey.numbering(of: foldings[1].indices.filter { foldings[1][$0] != number }).filter { $0 >= 0 }.count })
        #expect(radioCounts.count > 1)
        #expect(FingerprintIndex(records: records, grouping: .meanPerLocation).count == records.count / 3)
    }

    @Test func aRadioTooWeakEverywhereIsNotNumbered() {
        let records = [
            FingerprintRecord(building: "A", floorID: 0, x: 0, y: 0, readings: [1: -50, 2: -120]),
            FingerprintRecord(building: "A", floorID: 0, x: 1, y: 0, readings: [2: -110, 3: -60]),
        ]
        let survey = SurveyReadings(records: records, representation: .standard)
        #expect(survey.keys == [1, 3])
        #expect(survey.numbering(of: [1]) == [-1, 0])
        #expect(survey.heard(0, numberedBy: survey.numbering(of: [1])).isEmpty)
    }
}
