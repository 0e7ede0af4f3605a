extension WiFiKNNLocator {
    /// The fourth and fifth selections' rule (docs/wifi-fingerprinting.md, "Fourth selection" and
    /// "Fifth selection"): the survey chooses its own RSSI exponent (surveys of at most
    /// `exponentStageLimit` records), floor and position settings by 5-fold cross-validation inside
    /// itself, from short pre-registered lists, before it is indexed. It sees only the records it is given.
    public struct SiteChoice: Sendable {
        /// How many folds the survey is cut into.
        public static var foldCount: Int { 5 }
        /// At most this many held-out rows of each fold are positioned (bounds the cost on big maps).
        public static var heldOutPerFold: Int { 400 }
        /// A floor candidate must beat the given settings' cross-validated floor rate by this much.
        public static var floorMargin: Double { 0.002 }
        /// A position candidate must have a cross-validated mean below this share of the given one's.
        public static var positionFactor: Double { 0.99 }

        /// How the rows were cut into folds.
        public enum Folding: String, Sendable {
            /// Whole locations, round-robin in order of first appearance (≥ 3 samples per location on average).
            case locations = "locations round-robin"
            /// Consecutive blocks of rows in survey order.
            case blocks = "row blocks"
        }

        /// A candidate's cross-validated figures: mean 2-D error over the answered held-out rows,
        /// floor hit rate (building and floor right) over all of them.
        public struct Figures: Hashable, Sendable {
            public var mean: Double
            public var floorHitRate: Double
        }

        /// One candidate as tried.
        public struct Candidate: Sendable {
            public var label: String
            public var settings: Settings
            public var figures: Figures
        }

        /// The fourth selection's two stages in one representation: what they tried and chose.
        public struct Stages: Sendable {
            /// "given", "exponent × 0.75" or "exponent × 1.25".
            public var label: String
            public var representation: PoweredRSSI
            /// Stage 1, the given settings first.
            public var floorCandidates: [Candidate]
            /// Stage 2 (with stage 1's floor settings), the given position settings first.
            public var positionCandidates: [Candidate]
            /// The settings the two stages chose in this representation.
            public var chosen: Settings
            /// The chosen settings' cross-validated figures.
            public var chosenFigures: Figures
        }

        /// Nil when the survey is too small to cut (fewer than `foldCount` locations, or an empty fold).
        public let folding: Folding?
        /// The fifth selection's exponent stage: the two stages run in each candidate representation,
        /// the given one first (only the given one when the survey has more than `exponentStageLimit`
        /// records); empty when the survey cannot be cut.
        public let representations: [Stages]
        /// Stage 1 in the chosen representation, the given settings first.
        public let floorCandidates: [Candidate]
        /// Stage 2 in the chosen representation (with stage 1's floor settings), the given position settings first.
        public let positionCandidates: [Candidate]
        /// The settings the rule chose: `given` when nothing beat it by the rule's margins.
        public let chosen: Settings
        /// The representation the rule chose: the given one unless another exponent beat it by the rule's margins.
        public let chosenRepresentation: PoweredRSSI

        /// Surveys of more records than this keep the given exponent (bounds the build time).
        public static var exponentStageLimit: Int { 5_000 }
        /// The exponents tried, as multiples of the given one, the given first.
        public static var exponentFactors: [Double] { [1, 0.75, 1.25] }

        /// Runs the rule on `records` in `representation`, starting from `given`.
        public init(records: [FingerprintRecord<Key>], representation: PoweredRSSI = .standard, given: Settings = .standard) {
            guard let (folding, fold) = Self.folds(of: records), Self.cuts(fold) else {
                (self.folding, representations, floorCandidates, positionCandidates) = (nil, [], [], [])
                (chosen, chosenRepresentation) = (given, representation)
                return
            }
            self.folding = folding
            let factors = records.count <= Self.exponentStageLimit ? Self.exponentFactors : [1]
            representations = factors.map { factor in
                var candidate = representation
                candidate.exponent = representation.exponent * factor
                let label = factor == 1 ? "given" : "exponent × \(factor)"
                let survey = SurveyReadings(records: records, representation: candidate)
                return Self.stages(label: label, representation: candidate, in: Self.trials(of: survey, records: records, fold: fold, given: given), given: given)
            }
            let base = representations[0]
            var best = 0
            for index in representations.indices.dropFirst() {
                let trial = representations[index].chosenFigures
                guard trial.floorHitRate >= base.chosenFigures.floorHitRate - Self.floorMargin - 1e-12 else { continue }
                if trial.mean < representations[best].chosenFigures.mean { best = index }
            }
            if representations[best].chosenFigures.mean >= base.chosenFigures.mean * Self.positionFactor { best = 0 }
            let picked = representations[best]
            (floorCandidates, positionCandidates, chosen, chosenRepresentation) =
                (picked.floorCandidates, picked.positionCandidates, picked.chosen, picked.representation)
        }

        /// The fourth selection's two stages on folds built in `representation`.
        static func stages(label: String, representation: PoweredRSSI, in trials: [Trial], given: Settings) -> Stages {
            // Every floor candidate with every position candidate, scored in one pass.
            let floorGrid = Self.floorGrid(given)
            let grid = floorGrid.map { Self.positionGrid($0.1) }
            let figures = Self.figures(of: grid.map { $0.map(\.1) }, in: trials)
            let floorCandidates = floorGrid.indices.map {
                Candidate(label: floorGrid[$0].0, settings: floorGrid[$0].1, figures: figures[$0][0])
            }
            let floorGiven = figures[0][0].floorHitRate
            let bestFloor = floorGrid.indices.dropFirst().reduce(0) {
                figures[$1][0].floorHitRate > figures[$0][0].floorHitRate ? $1 : $0
            }
            let floorChoice = figures[bestFloor][0].floorHitRate >= floorGiven + Self.floorMargin - 1e-12 ? bestFloor : 0
            let positionCandidates = grid[floorChoice].indices.map {
                Candidate(label: grid[floorChoice][$0].0, settings: grid[floorChoice][$0].1, figures: figures[floorChoice][$0])
            }
            let positionGiven = positionCandidates[0].figures.mean
            let bestPosition = positionCandidates.dropFirst().reduce(positionCandidates[0]) {
                $1.figures.mean < $0.figures.mean ? $1 : $0
            }
            let chosen = bestPosition.figures.mean < positionGiven * Self.positionFactor ? bestPosition : positionCandidates[0]
            return Stages(
                label: label, representation: representation, floorCandidates: floorCandidates,
                positionCandidates: positionCandidates, chosen: chosen.settings, chosenFigures: chosen.figures)
        }

        /// Stage 1's list: (floor voters, floor vote power) ∈ given, (3, 3), (7, 3), (5, 2), (5, 4).
        static func floorGrid(_ given: Settings) -> [(String, Settings)] {
            [("given", given)] + [(3, 3.0), (7, 3), (5, 2), (5, 4)].map { voters, power in
                var settings = given
                settings.floorVoters = voters
                settings.floorVoteWeightPower = power
                return ("floor voters \(voters), power \(Int(power))", settings)
            }
        }

        /// Stage 2's list, P0 (given) to P8: (source, neighbours, ratio, position power).
        static func positionGrid(_ given: Settings) -> [(String, Settings)] {
            let grid: [(fromLocations: Bool, neighbours: Int, ratio: Double, power: Double)] = [
                (false, 31, 1.5, 2), (false, 31, .infinity, 2), (false, 11, .infinity, 2), (false, 5, .infinity, 1),
                (false, 3, .infinity, 1), (false, 31, 1.25, 3), (true, 3, .infinity, 2), (true, 5, .infinity, 2),
            ]
            return [("P0 given", given)] + grid.enumerated().map { index, point in
                var settings = given
                settings.positionFromLocations = point.fromLocations
                settings.neighbours = point.neighbours
                settings.neighbourDistanceRatio = point.ratio
                settings.positionWeightPower = point.power
                let ratio = point.ratio.isFinite ? "\(point.ratio)" : "inf"
                let source = point.fromLocations ? "location means" : "samples"
                return ("P\(index + 1) \(source), \(point.neighbours), \(ratio), power \(Int(point.power))", settings)
            }
        }

        /// Each record's fold and how they were made; nil when there are fewer than `foldCount` locations.
        static func folds(of records: [FingerprintRecord<Key>]) -> (Folding, [Int])? {
            let locations = FingerprintIndex.groups(of: records, by: .meanPerLocation)
            guard locations.count >= foldCount else { return nil }
            if records.count >= 3 * locations.count {
                var fold = Array(repeating: 0, count: records.count)
                for (number, members) in locations.enumerated() {
                    for record in members { fold[record] = number % foldCount }
                }
                return (.locations, fold)
            }
            return (.blocks, records.indices.map { $0 * foldCount / records.count })
        }

        /// Whether every fold keeps and holds out at least one row.
        static func cuts(_ fold: [Int]) -> Bool {
            (0..<foldCount).allSatisfy { number in fold.contains(number) && fold.contains { $0 != number } }
        }

        /// Per fold, the locator built from the other folds and the held-out rows to position
        /// (at most `heldOutPerFold`, evenly spread); nil when the survey cannot be cut.
        static func trials(
            of records: [FingerprintRecord<Key>], representation: PoweredRSSI, given: Settings
        ) -> (Folding, [(WiFiKNNLocator, [FingerprintRecord<Key>])])? {
            guard let (folding, fold) = folds(of: records), cuts(fold) else { return nil }
            return (folding, trials(of: records, fold: fold, representation: representation, given: given))
        }

        /// Per fold of `fold` (which `cuts`), the locator built from the other folds in
        /// `representation` and the held-out rows to position (at most `heldOutPerFold`, evenly spread).
        static func trials(
            of records: [FingerprintRecord<Key>], fold: [Int], representation: PoweredRSSI, given: Settings
        ) -> [(WiFiKNNLocator, [FingerprintRecord<Key>])] {
            (0..<foldCount).map { number in
                let kept = zip(records, fold).filter { $0.1 != number }.map(\.0)
                let held = zip(records, fold).filter { $0.1 == number }.map(\.0)
                let capped = held.count <= heldOutPerFold
                    ? held : (0..<heldOutPerFold).map { held[$0 * held.count / heldOutPerFold] }
                return (WiFiKNNLocator(records: kept, representation: representation, settings: given), capped)
            }
        }

        /// One fold: the locator built from the other folds, and the held-out rows to position
        /// (at most `heldOutPerFold`, evenly spread), each with its scan in the locator's numbering.
        struct Trial {
            var locator: WiFiKNNLocator
            var held: [FingerprintRecord<Key>]
            var scans: [[(column: Int32, value: Double)]]
        }

        /// `trials(of:fold:representation:given:)` from the survey's readings worked out once:
        /// the same locators and held-out rows, with no key hashed or power raised per fold.
        static func trials(of survey: SurveyReadings<Key>, records: [FingerprintRecord<Key>], fold: [Int], given: Settings) -> [Trial] {
            (0..<foldCount).map { number in
                let kept = fold.indices.filter { fold[$0] != number }
                let held = fold.indices.filter { fold[$0] == number }
                let capped = held.count <= heldOutPerFold
                    ? held : (0..<heldOutPerFold).map { held[$0 * held.count / heldOutPerFold] }
                let radioNumber = survey.numbering(of: kept)
                return Trial(
                    locator: WiFiKNNLocator(survey: survey, records: records, rows: kept, settings: given),
                    held: capped.map { records[$0] }, scans: capped.map { survey.heard($0, numberedBy: radioNumber) })
            }
        }

        /// The figures of every settings in `grid` over every fold's held-out rows; a row that hears
        /// nothing the kept folds heard counts as a floor miss and is left out of the mean (infinite
        /// when none is answered). Each row is searched once (`Neighbourhood`) for all the settings,
        /// which must share the fold locators' building voters; the figures are those of
        /// `with(settings).locate(_:)` on each row, added up in the same order.
        static func figures(of grid: [[Settings]], in trials: [Trial]) -> [[Figures]] {
            let all = grid.joined()
            let floorVoterLimit = all.map(\.floorVoters).max() ?? 1, neighbourLimit = all.map(\.neighbours).max() ?? 1
            var tallies = grid.map { $0.map { _ in Tally() } }
            for trial in trials {
                let built = trial.locator
                for (record, scan) in zip(trial.held, trial.scans) {
                    guard var neighbourhood = built.neighbourhood(
                        of: scan, floorVoterLimit: floorVoterLimit, neighbourLimit: neighbourLimit)
                    else {
                        for i in tallies.indices { for j in tallies[i].indices { tallies[i][j].rows += 1 } }
                        continue
                    }
                    // Settings that differ only in the floor vote give the same fix on the same floor
                    // (a short list: a few floors times the position candidates).
                    var fixes: [(key: PositionKey, fix: WiFiFix)] = []
                    for (i, row) in grid.enumerated() {
                        for (j, settings) in row.enumerated() {
                            let floor = built.floor(in: neighbourhood, settings: settings)
                            let key = PositionKey(floor: floor, settings: settings)
                            let fix: WiFiFix
                            if let known = fixes.first(where: { $0.key == key }) {
                                fix = known.fix
                            } else {
                                fix = built.fix(in: &neighbourhood, floor: floor, settings: settings)
                                fixes.append((key, fix))
                            }
                            tallies[i][j].add(fix, of: record)
                        }
                    }
                }
            }
            return tallies.map { $0.map(\.figures) }
        }

        /// What decides a fix once the floor is chosen: the floor and the position settings.
        private struct PositionKey: Hashable {
            var floor: Int64
            var settings: Settings

            init(floor: Int64, settings: Settings) {
                self.floor = floor
                var position = settings
                position.floorVoters = 0
                position.floorVoteWeightPower = 0
                self.settings = position
            }
        }

        /// One candidate's sums over the held-out rows so far.
        private struct Tally {
            var errorSum = 0.0, answered = 0, floorHits = 0, rows = 0

            mutating func add(_ fix: WiFiFix, of record: FingerprintRecord<Key>) {
                rows += 1
                if fix.building == record.building && fix.estimate.floorID == record.floorID { floorHits += 1 }
                let dx = fix.estimate.x - record.x, dy = fix.estimate.y - record.y
                errorSum += (dx * dx + dy * dy).squareRoot()
                answered += 1
            }

            var figures: Figures {
                Figures(
                    mean: answered > 0 ? errorSum / Double(answered) : .infinity,
                    floorHitRate: rows > 0 ? Double(floorHits) / Double(rows) : 0)
            }
        }
    }

    /// Builds both indexes from `records` in the representation and with the settings the survey
    /// chooses for itself (``SiteChoice``, starting from `representation` and `given`); the choice
    /// is returned beside the locator.
    public static func choosingSettings(
        records: [FingerprintRecord<Key>], representation: PoweredRSSI = .standard, given: Settings = .standard
    ) -> (locator: Self, choice: SiteChoice) {
        let choice = SiteChoice(records: records, representation: representation, given: given)
        return (Self(records: records, representation: choice.chosenRepresentation, settings: choice.chosen), choice)
    }
}
