import Positioning

/// One setting of the Wi-Fi method the third selection compares: the powed representation's
/// exponent and the kNN cascade's settings, everything else as in `.standard`.
struct SelectionCandidate: Hashable, Sendable {
    /// The settings a candidate may change, each with the values the pre-registration lists.
    enum Setting: String, CaseIterable, Sendable {
        case exponent
        case neighbours
        case neighbourRatio = "neighbour ratio"
        case floorVoters = "floor voters"
        case floorVotePower = "floor vote power"
        case positionPower = "position power"

        /// The values docs/wifi-fingerprinting.md lists, in increasing order.
        var grid: [Double] {
            switch self {
            case .exponent: [1.5, 2, 2.5]
            case .neighbours: [21, 31, 41]
            case .neighbourRatio: [1.25, 1.5, 2]
            case .floorVoters: [3, 5, 7]
            case .floorVotePower: [2, 3, 4]
            case .positionPower: [1, 2, 3]
            }
        }
    }

    var exponent: Double
    var settings: WiFiKNNLocator<Int>.Settings

    /// `.standard` as the third selection was pre-registered against (commit 549ca81): exponent 2,
    /// 5 building voters, 5 floor voters weighted 1 / d³, 31 neighbours weighted 1 / d² within
    /// 1.5 × the nearest distance. Fixed here, so that the selection can be run again as it ran
    /// after the default moved to its outcome.
    static var standard: Self {
        Self(
            exponent: 2,
            settings: WiFiKNNLocator<Int>.Settings(
                buildingVoters: 5, floorVoters: 5, neighbours: 31,
                floorVoteWeightPower: 3, positionWeightPower: 2, neighbourDistanceRatio: 1.5))
    }

    /// Powed RSSI with this exponent, floor and threshold as in `PoweredRSSI.standard`.
    var representation: PoweredRSSI {
        PoweredRSSI(floorDBm: PoweredRSSI.standard.floorDBm, exponent: exponent, weakestHeardDBm: PoweredRSSI.standard.weakestHeardDBm)
    }

    subscript(setting: Setting) -> Double {
        get {
            switch setting {
            case .exponent: exponent
            case .neighbours: Double(settings.neighbours)
            case .neighbourRatio: settings.neighbourDistanceRatio
            case .floorVoters: Double(settings.floorVoters)
            case .floorVotePower: settings.floorVoteWeightPower
            case .positionPower: settings.positionWeightPower
            }
        }
        set {
            switch setting {
            case .exponent: exponent = newValue
            case .neighbours: settings.neighbours = Int(newValue)
            case .neighbourRatio: settings.neighbourDistanceRatio = newValue
            case .floorVoters: settings.floorVoters = Int(newValue)
            case .floorVotePower: settings.floorVoteWeightPower = newValue
            case .positionPower: settings.positionWeightPower = newValue
            }
        }
    }

    /// The settings in which this candidate differs from `.standard`.
    var changes: [Setting] { Setting.allCases.filter { self[$0] != Self.standard[$0] } }

    /// "standard", or the changes, e.g. "neighbours 41, position power 3".
    var label: String {
        changes.isEmpty ? "standard" : changes.map { "\($0.rawValue) \(Self.format(self[$0]))" }.joined(separator: ", ")
    }

    /// `.standard` with `setting` set to `value`.
    static func standard(with setting: Setting, _ value: Double) -> Self {
        var candidate = standard
        candidate[setting] = value
        return candidate
    }

    /// `.standard` first, then its one-step neighbours: for each setting in turn, the grid values
    /// next to the standard's (below, then above), one setting changed at a time.
    static var oneStep: [Self] {
        var candidates = [standard]
        for setting in Setting.allCases {
            let grid = setting.grid
            guard let at = grid.firstIndex(of: standard[setting]) else { continue }
            for index in [at - 1, at + 1] where grid.indices.contains(index) {
                candidates.append(standard(with: setting, grid[index]))
            }
        }
        return candidates
    }

    /// Every pair of `best` (one-step candidates, each changing one setting) that change
    /// different settings, combined: both changes at once. In the order of `best`.
    static func pairwise(_ best: [Self]) -> [Self] {
        var pairs: [Self] = []
        for (i, first) in best.enumerated() {
            for second in best[(i + 1)...] {
                guard let setting = second.changes.first, first.changes.count == 1, second.changes.count == 1,
                      first.changes != second.changes
                else { continue }
                var combined = first
                combined[setting] = second[setting]
                pairs.append(combined)
            }
        }
        return pairs
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
