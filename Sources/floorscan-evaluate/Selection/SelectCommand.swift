import ArgumentParser
import DaemonSupport
import Evaluation
import Foundation
import Positioning

/// `floorscan-evaluate select`: the third selection of the Wi-Fi method's settings, as
/// docs/wifi-fingerprinting.md pre-registers it, on the `train` files of the fingerprint suite
/// only: grouped 5-fold cross-validation inside each, `.standard` and its one-step neighbours, then
/// the best of those combined pairwise, judged by ``SelectionCriterion``. Prints the table of every
/// candidate and the chosen one. Never reads a `test` file.
struct SelectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "select",
        abstract: "Choose the Wi-Fi settings by cross-validation inside the suite's train files; prints a Markdown table."
    )

    /// `--data` and `--only`; the selection needs all eight datasets, the default.
    @OptionGroup var suite: SuiteOptions

    @Flag(help: "Instead, the fourth selection: each train file chooses its own settings by cross-validation inside itself (as wifi-knn now does when it builds); prints every candidate's figures.")
    var perSite = false

    func run() throws {
        let datasets = try load()
        if perSite {
            let sites = datasets.map { dataset in
                let records = dataset.samples.map(\.fingerprint)
                let (choice, choiceSeconds) = CPUTime.onThisThread { WiFiKNNLocator<Int>.SiteChoice(records: records) }
                let buildSeconds = CPUTime.onThisThread { WiFiKNNLocator(records: records, representation: choice.chosenRepresentation, settings: choice.chosen) }.seconds
                let cost = "\(dataset.name): \(records.count) samples, choice \(SuiteTable.fixed(choiceSeconds, digits: 3)) s "
                    + "+ index build \(SuiteTable.fixed(buildSeconds, digits: 3)) s of CPU\n"
                FileHandle.standardError.write(Data(cost.utf8))
                return (dataset.name, choice)
            }
            print(SiteChoiceTable(sites: sites).markdown, terminator: "")
            return
        }
        let outcome = Self.select(on: datasets) { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
        print(SelectionTable(datasets: datasets, outcome: outcome).markdown, terminator: "")
    }

    /// Each chosen dataset's train file (and WiFine's `train_traj.csv`), cut into folds.
    /// - Throws: `UJIIndoorLocEvaluationError` naming a file that is missing, unreadable or malformed.
    func load() throws -> [SelectionDataset] {
        try suite.chosen.map { dataset in
            let folder = suite.folder(of: dataset)
            let exists = { FileManager.default.fileExists(atPath: $0) }
            guard let train = SuiteDataset.file("train", in: folder, exists: exists) else {
                throw UJIIndoorLocEvaluationError(description: "\(folder): no train.csv or train.csv.gz")
            }
            let trajectories = try SuiteDataset.file("train_traj", in: folder, exists: exists).map(Self.trajectories)
            return try SelectionDataset(name: dataset.name, samples: try UJIIndoorLocEvaluation.samples(in: train), trajectories: trajectories)
        }
    }

    /// The first column of a `*_traj.csv` file (after its header): the walk of each row.
    /// - Throws: `UJIIndoorLocEvaluationError` when the file cannot be read or has no header.
    static func trajectories(in path: String) throws -> [String] {
        let lines: [Substring]
        do { lines = try DatasetFile.lines(of: path) } catch { throw UJIIndoorLocEvaluationError(description: error.description) }
        guard lines.first?.hasPrefix("trajectory") == true else {
            throw UJIIndoorLocEvaluationError(description: "\(path):1: expected a header starting with \"trajectory\"")
        }
        return lines.dropFirst().map { String($0.prefix { $0 != "," }) }
    }

    /// What the selection ran and chose.
    struct Outcome {
        /// `.standard` first, then the one-step neighbours, then the pairwise combinations.
        var scores: [SelectionCriterion.Score]
        /// How many of `scores` are `.standard` and its one-step neighbours.
        var oneStepCount: Int
        var chosen: SelectionCriterion.Score
    }

    /// Runs both stages on `datasets`, reporting each candidate's progress to `log`.
    static func select(on datasets: [SelectionDataset], log: (String) -> Void) -> Outcome {
        let oneStep = figures(of: SelectionCandidate.oneStep, on: datasets, log: log)
        let standard = oneStep[0].1
        let oneStepScores = oneStep.map { SelectionCriterion.score($0.0, $0.1, standard: standard) }
        let pairs = SelectionCandidate.pairwise(SelectionCriterion.bestOneStep(oneStepScores))
        let pairScores = figures(of: pairs, on: datasets, log: log).map { SelectionCriterion.score($0.0, $0.1, standard: standard) }
        let scores = oneStepScores + pairScores
        return Outcome(scores: scores, oneStepCount: oneStepScores.count, chosen: SelectionCriterion.choose(scores))
    }

    /// Each candidate's figures on every dataset, in the order of `candidates`; candidates that
    /// share an exponent share each fold's indexes.
    static func figures(
        of candidates: [SelectionCandidate], on datasets: [SelectionDataset], log: (String) -> Void
    ) -> [(SelectionCandidate, [SelectionCriterion.Figures])] {
        var perDataset = Array(repeating: [SelectionCriterion.Figures](), count: candidates.count)
        for exponent in Set(candidates.map(\.exponent)).sorted() {
            let indices = candidates.indices.filter { candidates[$0].exponent == exponent }
            for dataset in datasets {
                let started = ContinuousClock.now
                let figures = dataset.figures(of: indices.map { candidates[$0] })
                for (index, figure) in zip(indices, figures) { perDataset[index].append(figure) }
                log("exponent \(SelectionCandidate.format(exponent)), \(dataset.name): \(indices.count) candidates in \(ContinuousClock.now - started)")
            }
        }
        return Array(zip(candidates, perDataset))
    }
}
