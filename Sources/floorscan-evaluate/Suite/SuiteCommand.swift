import ArgumentParser
import Foundation
import Positioning

/// `floorscan-evaluate suite`: the default Wi-Fi method (the settings `ujiindoorloc` uses when given
/// none) on every dataset of the fingerprint suite, trained on its `train` file and tested on its
/// `test` file, printed as one Markdown table beside each dataset's kNN reference and published
/// best. With `--survey-quality`, instead, how well each location's expected error predicts the
/// test part's real errors (``SurveyQualityTable``). A dataset whose folder is missing is listed as
/// skipped; one that cannot be read stops the run with the error naming its file, line and column.
struct SuiteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suite",
        abstract: "The default method over the whole fingerprint suite; prints one Markdown table."
    )

    @OptionGroup var suite: SuiteOptions

    @Option(help: "Also write each dataset's full JSON report (as `ujiindoorloc` prints it) into this folder.")
    var reports: String?

    @Flag(help: "Instead, measure how well the expected error (leave-one-location-out on the train part) predicts the test part's real errors.")
    var surveyQuality = false

    @Option(help: "With --survey-quality: at most this many maps built per dataset (more locations are left out in this many folds).")
    var folds: Int = LeaveOneLocationOut<Int>().maximumFolds

    func validate() throws {
        guard folds >= 2 else { throw ValidationError("--folds must be at least 2, got \(folds)") }
    }

    func run() throws {
        if surveyQuality {
            print(SurveyQualityTable(rows: try surveyQualityRows()).markdown, terminator: "")
        } else {
            print(SuiteTable(rows: try evaluate()).markdown, terminator: "")
        }
    }

    /// The chosen datasets in the suite's order, each with its train and test files, or nil
    /// when they are not found.
    var chosenFiles: [(dataset: SuiteDataset, files: (train: String, test: String)?)] {
        let exists = { FileManager.default.fileExists(atPath: $0) }
        return suite.chosen.map { dataset in
            let folder = suite.folder(of: dataset)
            guard let train = SuiteDataset.file("train", in: folder, exists: exists),
                  let test = SuiteDataset.file("test", in: folder, exists: exists)
            else { return (dataset, nil) }
            return (dataset, (train, test))
        }
    }

    /// One row per chosen dataset, in the suite's order.
    /// - Throws: `UJIIndoorLocEvaluationError` naming the file that could not be read or parsed,
    ///   or the error of writing a report.
    func evaluate() throws -> [SuiteTable.Row] {
        try chosenFiles.map { dataset, files in
            guard let files else { return SuiteTable.Row(dataset: dataset, report: nil) }
            let report = try UJIIndoorLocEvaluation.parse(["--train", files.train, "--test", files.test]).evaluate()
            if let reports { try write(report, to: "\(reports)/\(dataset.name).json") }
            return SuiteTable.Row(dataset: dataset, report: report)
        }
    }

    private func write(_ report: UJIIndoorLocReport, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try encoder.encode(report).write(to: URL(fileURLWithPath: path))
    }
}
