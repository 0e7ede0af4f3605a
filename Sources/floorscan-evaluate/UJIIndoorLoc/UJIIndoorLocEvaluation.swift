import ArgumentParser
import Evaluation
import Foundation
import Positioning
import ScanContract

/// `floorscan-evaluate ujiindoorloc`: builds a fingerprint index from the training file, positions
/// every row of the test file one at a time, and prints one JSON object of errors (EPSG:3857 metres,
/// as the literature reports them), hit rates, timing and memory. With `--leave-one-user-out` or
/// `--leave-one-phone-out` it tests on the training file alone, the way settings are chosen.
struct UJIIndoorLocEvaluation: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ujiindoorloc",
        abstract: "Wi-Fi fingerprinting on UJIIndoorLoc: train on one CSV, test on another (plain or gzipped)."
    )

    @Option(help: "The training CSV (trainingData.csv or .csv.gz).")
    var train: String

    @Option(help: "The test CSV (validationData.csv or .csv.gz).")
    var test: String?

    @Flag(help: "Instead of a test file, hold out each training user in turn and test on their samples.")
    var leaveOneUserOut = false

    @Flag(help: "Instead of a test file, hold out each training phone in turn (all its users) and test on its samples.")
    var leaveOnePhoneOut = false

    @Option(help: "wifi-knn, best-match-vote, or plain-knn (the data READMEs' reference: k = 3, Euclidean on dBm, not heard = -105).")
    var method: WiFiMethod = .wifiKNN

    @Option(help: "Neighbours averaged for the position (wifi-knn).")
    var k: Int = WiFiKNNLocator<Int>.Settings.standard.neighbours

    @Option(help: "Neighbours in the chosen building voting for the floor (wifi-knn).")
    var floorVoters: Int = WiFiKNNLocator<Int>.Settings.standard.floorVoters

    @Option(help: "Neighbours voting for the building (wifi-knn).")
    var buildingVoters: Int = WiFiKNNLocator<Int>.Settings.standard.buildingVoters

    @Option(help: "Power of 1 / distance weighting each floor vote (wifi-knn).")
    var floorVotePower: Double = WiFiKNNLocator<Int>.Settings.standard.floorVoteWeightPower

    @Option(help: "Power of 1 / distance weighting each neighbour in the position (wifi-knn).")
    var positionPower: Double = WiFiKNNLocator<Int>.Settings.standard.positionWeightPower

    @Option(help: "Average only neighbours within this multiple of the nearest one's distance; inf for all k (wifi-knn).")
    var neighbourRatio: Double = WiFiKNNLocator<Int>.Settings.standard.neighbourDistanceRatio

    @Flag(help: "Use the settings given (or the standard ones) as they are, instead of letting the training survey choose its floor and position settings by cross-validation inside itself (wifi-knn).")
    var fixedSettings = false

    @Option(help: "Exponent of the powed RSSI representation.")
    var exponent: Double = PoweredRSSI.standard.exponent

    @Option(help: "Readings weaker than this (dBm) count as not heard.")
    var weakestDbm: Double = PoweredRSSI.standard.weakestHeardDBm

    func validate() throws {
        guard [test != nil, leaveOneUserOut, leaveOnePhoneOut].filter({ $0 }).count == 1 else {
            throw ValidationError("give one of --test FILE, --leave-one-user-out or --leave-one-phone-out")
        }
        for (name, value) in [("--k", k), ("--floor-voters", floorVoters), ("--building-voters", buildingVoters)] where value < 1 {
            throw ValidationError("\(name) must be at least 1, got \(value)")
        }
        for (name, value) in [("--floor-vote-power", floorVotePower), ("--position-power", positionPower)] where !(value >= 0 && value.isFinite) {
            throw ValidationError("\(name) must be a number at least 0, got \(value)")
        }
        guard neighbourRatio >= 1 else { throw ValidationError("--neighbour-ratio must be at least 1, got \(neighbourRatio)") }
        guard exponent > 0, exponent.isFinite else { throw ValidationError("--exponent must be more than 0, got \(exponent)") }
        guard weakestDbm <= 0 else { throw ValidationError("--weakest-dbm must be at most 0 dBm, got \(weakestDbm)") }
    }

    func run() throws {
        print(try Self.json(try evaluate()))
    }

    /// The report as printed: keys sorted; a figure with no value (the mean of a held-out group
    /// whose every scan went unanswered) as the string "nan" instead of a failed run.
    static func json(_ report: UJIIndoorLocReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return String(decoding: try encoder.encode(report), as: UTF8.self)
    }

    /// Reads the files, runs the method and measures it.
    /// Throws `UJIIndoorLocEvaluationError` naming the file that could not be read or parsed.
    func evaluate() throws(UJIIndoorLocEvaluationError) -> UJIIndoorLocReport {
        let training = try Self.samples(in: train)
        guard !training.isEmpty else { throw UJIIndoorLocEvaluationError(description: "\(train) holds no samples") }
        guard let test else { return crossValidate(training, holdingOut: leaveOnePhoneOut ? .phone : .user) }
        let testing = try Self.samples(in: test)
        guard !testing.isEmpty else { throw UJIIndoorLocEvaluationError(description: "\(test) holds no samples") }
        let built = build(from: training)
        var trial = UJIIndoorLocTrial()
        trial.test(built.locator, on: testing)
        return report(trial, covered: nil, testedOn: "test file", built: built, trainingSamples: training.count)
    }

    var representation: PoweredRSSI {
        PoweredRSSI(floorDBm: PoweredRSSI.standard.floorDBm, exponent: exponent, weakestHeardDBm: weakestDbm)
    }

    var settings: WiFiKNNLocator<Int>.Settings {
        WiFiKNNLocator<Int>.Settings(
            buildingVoters: buildingVoters, floorVoters: floorVoters, neighbours: k,
            floorVoteWeightPower: floorVotePower, positionWeightPower: positionPower, neighbourDistanceRatio: neighbourRatio)
    }

    /// A locator of the chosen method and what building it cost.
    struct BuiltLocator {
        var locator: any WiFiLocator<Int>
        var seconds: Double
        var indexBytes: Int
        var fingerprints: Int
        var accessPoints: Int
        /// The wifi-knn settings in use (after the survey's own choice unless `--fixed-settings`).
        var settings: WiFiKNNLocator<Int>.Settings? = nil
        /// How the settings were chosen, for the report.
        var settingsChosenBy: String? = nil
        /// The representation the wifi-knn indexes were built in (the survey's choice unless `--fixed-settings`).
        var representation: PoweredRSSI? = nil
    }

    func build(from training: [UJIIndoorLocSample]) -> BuiltLocator {
        let records = training.map(\.fingerprint)
        let started = ContinuousClock.now
        switch method {
        case .wifiKNN:
            let knn: WiFiKNNLocator<Int>
            let chosenBy: String
            if fixedSettings {
                knn = WiFiKNNLocator(records: records, representation: representation, settings: settings)
                chosenBy = "given"
            } else {
                let (locator, choice) = WiFiKNNLocator.choosingSettings(records: records, representation: representation, given: settings)
                knn = locator
                chosenBy = choice.folding.map { "survey cross-validation (\($0.rawValue))" } ?? "given (survey too small to cut into folds)"
            }
            return BuiltLocator(
                locator: knn, seconds: (ContinuousClock.now - started) / .seconds(1), indexBytes: knn.memoryBytes,
                fingerprints: knn.samples.count, accessPoints: knn.samples.radioCount, settings: knn.settings,
                settingsChosenBy: chosenBy, representation: knn.samples.representation)
        case .plainKNN:
            let reference = PlainKNNLocator(records: records)
            return BuiltLocator(
                locator: reference, seconds: (ContinuousClock.now - started) / .seconds(1), indexBytes: reference.memoryBytes,
                fingerprints: records.count, accessPoints: reference.postings.count)
        case .bestMatchVote:
            let index = FingerprintIndex(records: records, representation: representation)
            return BuiltLocator(
                locator: BestMatchVoteLocator(index: index), seconds: (ContinuousClock.now - started) / .seconds(1),
                indexBytes: index.memoryBytes, fingerprints: index.count, accessPoints: index.radioCount)
        }
    }

    func report(
        _ trial: UJIIndoorLocTrial, covered: UJIIndoorLocTrial?, testedOn: String, built: BuiltLocator, trainingSamples: Int,
        heldOutGroups: [UJIIndoorLocReport.HeldOutGroup]? = nil
    ) -> UJIIndoorLocReport {
        UJIIndoorLocReport(
            metrics: UJIIndoorLocMetrics(trial),
            details: UJIIndoorLocReport.Details(
                method: built.locator.method,
                settings: built.settings.map { UJIIndoorLocReport.Settings($0, built.representation ?? representation, chosenBy: built.settingsChosenBy) },
                testedOn: testedOn,
                covered: covered.map(UJIIndoorLocMetrics.init),
                heldOutGroups: heldOutGroups,
                msPerQuery: ErrorSummary.percentile(50, ofSorted: trial.queryMilliseconds.sorted()),
                trainingSamples: trainingSamples,
                fingerprints: built.fingerprints,
                accessPoints: built.accessPoints,
                buildSeconds: built.seconds,
                indexBytes: built.indexBytes,
                maxRSSBytes: ProcessMemory.maximumResidentBytes()
            )
        )
    }

    static func samples(in path: String) throws(UJIIndoorLocEvaluationError) -> [UJIIndoorLocSample] {
        do {
            return try UJIIndoorLoc.parse(try DatasetFile.contents(of: path))
        } catch let error as DatasetFile.ReadError {
            throw UJIIndoorLocEvaluationError(description: error.description)
        } catch {
            throw UJIIndoorLocEvaluationError(description: "\(path): \(error)")
        }
    }
}

/// Why an evaluation could not run; the message names the file.
struct UJIIndoorLocEvaluationError: Error, CustomStringConvertible {
    var description: String
}

enum WiFiMethod: String, ExpressibleByArgument, CaseIterable {
    case wifiKNN = "wifi-knn"
    case bestMatchVote = "best-match-vote"
    case plainKNN = "plain-knn"
}
