import Evaluation
import ScanContract

extension UJIIndoorLocEvaluation {
    /// A held-out sample counts as "covered" when the remaining training data has a location on
    /// its floor within this distance (metres), as the validation points mostly do (BASELINES.md:
    /// nearest surveyed location p95 7 m).
    static var coverageRadius: Double { 5 }

    /// What a cross-validation fold holds out.
    enum HeldOutGroup: String {
        /// One user (each user collected with one phone; some phones served several users).
        case user
        /// One phone, with every user who collected with it: the scans of a phone the survey
        /// never saw, as most of UJIIndoorLoc's validation scans are.
        case phone

        func of(_ sample: UJIIndoorLocSample) -> Int { self == .user ? sample.userID : sample.phoneID }
    }

    /// Leave-one-group-out on the training samples: for each user (or phone), build from the
    /// other samples and test on theirs. Reports every held-out sample, and apart the covered
    /// ones; the build figures are those of the last fold.
    func crossValidate(_ training: [UJIIndoorLocSample], holdingOut group: HeldOutGroup) -> UJIIndoorLocReport {
        var all = UJIIndoorLocTrial()
        var covered = UJIIndoorLocTrial()
        var groups: [UJIIndoorLocReport.HeldOutGroup] = []
        var lastBuild: BuiltLocator?
        for member in Set(training.map(group.of)).sorted() {
            let kept = training.filter { group.of($0) != member }
            let held = training.filter { group.of($0) == member }
            guard !kept.isEmpty else { continue }
            let built = build(from: kept)
            var memberAll = UJIIndoorLocTrial(), memberCovered = UJIIndoorLocTrial()
            memberAll.test(built.locator, on: held)
            memberCovered.test(built.locator, on: Self.covered(held, by: kept))
            all.add(memberAll)
            covered.add(memberCovered)
            groups.append(UJIIndoorLocReport.HeldOutGroup(
                id: member, all: UJIIndoorLocMetrics(memberAll), covered: UJIIndoorLocMetrics(memberCovered)))
            lastBuild = built
        }
        // With a single user (phone) there is nothing to hold out against: the report is empty.
        let built = lastBuild ?? build(from: training)
        return report(
            all, covered: covered, testedOn: "leave-one-\(group.rawValue)-out on the training file", built: built,
            trainingSamples: training.count, heldOutGroups: groups)
    }

    /// The samples of `held` with a location of `kept` on the same building and floor within
    /// `coverageRadius`.
    static func covered(_ held: [UJIIndoorLocSample], by kept: [UJIIndoorLocSample]) -> [UJIIndoorLocSample] {
        struct Floor: Hashable { var building: Int, floor: Int }
        struct Point: Hashable { var x: Double, y: Double }
        var places: [Floor: Set<Point>] = [:]
        for sample in kept {
            places[Floor(building: sample.buildingID, floor: sample.floor), default: []]
                .insert(Point(x: sample.longitude, y: sample.latitude))
        }
        return held.filter { sample in
            places[Floor(building: sample.buildingID, floor: sample.floor)]?.contains { point in
                planarError(x: point.x, y: point.y, trueX: sample.longitude, trueY: sample.latitude) <= coverageRadius
            } ?? false
        }
    }
}
