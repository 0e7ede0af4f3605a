import ArgumentParser
import Evaluation
import Foundation
import Harness

/// `floorscan-evaluate longterm`: how a radio map ages. Reads a folder in the layout of
/// `uji-library-longterm` (`monthMM_train.csv[.gz]` and `monthMM_test.csv[.gz]`, UJIIndoorLoc
/// columns), builds once from the earliest month's train file, and positions every month's test
/// file with the default method (the survey choosing its own settings, as `ujiindoorloc` does) and
/// with the plain kNN reference; prints one Markdown table (``LongTermTable``). Only the survey's
/// own train file is used to build; no setting is taken from a test file.
struct LongTermCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "longterm",
        abstract: "Survey aging: train on the first month's survey, test on every month; prints one Markdown table."
    )

    @Option(help: "The folder (default: uji-library-longterm in $FLOORSCAN_DATA or ../shared/data).")
    var data: String = PublicData.path("uji-library-longterm")

    /// The train file and the months' test files found in `data`, months in increasing order.
    /// - Throws: `UJIIndoorLocEvaluationError` when the folder cannot be listed or holds no train or no test file.
    func files() throws(UJIIndoorLocEvaluationError) -> (train: String, tests: [(month: Int, path: String)]) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: data) } catch {
            throw UJIIndoorLocEvaluationError(description: "\(data): cannot list the folder (\(error.localizedDescription))")
        }
        let trains = names.compactMap { name in Self.month(of: name, part: "train").map { ($0, "\(data)/\(name)") } }.sorted { $0.0 < $1.0 }
        let tests = names.compactMap { name in Self.month(of: name, part: "test").map { ($0, "\(data)/\(name)") } }.sorted { $0.0 < $1.0 }
        guard let train = trains.first else {
            throw UJIIndoorLocEvaluationError(description: "\(data) holds no monthMM_train.csv or monthMM_train.csv.gz")
        }
        guard !tests.isEmpty else {
            throw UJIIndoorLocEvaluationError(description: "\(data) holds no monthMM_test.csv or monthMM_test.csv.gz")
        }
        return (train.1, tests.map { (month: $0.0, path: $0.1) })
    }

    /// MM of `monthMM_<part>.csv` or `monthMM_<part>.csv.gz` (MM one or more digits), else nil.
    static func month(of name: String, part: String) -> Int? {
        let suffixes = ["_\(part).csv", "_\(part).csv.gz"]
        guard name.hasPrefix("month"), let suffix = suffixes.first(where: name.hasSuffix) else { return nil }
        let digits = name.dropFirst("month".count).dropLast(suffix.count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }

    func run() throws {
        print(LongTermTable(rows: try evaluate()).markdown, terminator: "")
    }

    /// One row per test month, in order.
    /// - Throws: `UJIIndoorLocEvaluationError` naming the file that could not be found, read or parsed.
    func evaluate() throws(UJIIndoorLocEvaluationError) -> [LongTermTable.Row] {
        let (train, tests) = try files()
        let training = try UJIIndoorLocEvaluation.samples(in: train)
        guard !training.isEmpty else { throw UJIIndoorLocEvaluationError(description: "\(train) holds no samples") }
        let methods: [UJIIndoorLocEvaluation]
        do {
            methods = try [[], ["--method", "plain-knn"]].map { try UJIIndoorLocEvaluation.parse(["--train", train, "--test", train] + $0) }
        } catch {
            throw UJIIndoorLocEvaluationError(description: "internal: \(error)")
        }
        let built = methods.map { $0.build(from: training) }
        return try tests.map { month, path throws(UJIIndoorLocEvaluationError) in
            let testing = try UJIIndoorLocEvaluation.samples(in: path)
            let reports = zip(methods, built).map { method, built in
                var trial = UJIIndoorLocTrial()
                trial.test(built.locator, on: testing)
                return method.report(trial, covered: nil, testedOn: path, built: built, trainingSamples: training.count)
            }
            return LongTermTable.Row(
                month: month, standard: reports[0], reference: reports[1],
                nearestSurveyedMean: Self.nearestSurveyedMean(testing, survey: training))
        }
    }

    /// Mean distance from each test sample to the nearest surveyed location on its building and
    /// floor (the error of an oracle that always picks the right survey point); nan when none has one.
    static func nearestSurveyedMean(_ testing: [UJIIndoorLocSample], survey: [UJIIndoorLocSample]) -> Double {
        struct Floor: Hashable { var building: Int, floor: Int }
        var places: [Floor: [(x: Double, y: Double)]] = [:]
        for sample in survey { places[Floor(building: sample.buildingID, floor: sample.floor), default: []].append((sample.longitude, sample.latitude)) }
        let distances = testing.compactMap { sample in
            places[Floor(building: sample.buildingID, floor: sample.floor)]?
                .map { planarError(x: $0.x, y: $0.y, trueX: sample.longitude, trueY: sample.latitude) }.min()
        }
        return distances.isEmpty ? .nan : distances.reduce(0, +) / Double(distances.count)
    }
}
