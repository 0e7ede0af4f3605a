/// The seed system's method, kept for comparison: for every radio the scan heard, the survey
/// fingerprint whose RSSI for that radio is closest (in dBm) gets a vote; the fingerprint with the
/// most votes gives building, floor and position.
///
/// Ties are split rather than given to whichever fingerprint came first: fingerprints tied for
/// closest on one radio share its vote equally, and when several fingerprints end with the most
/// votes the position is their mean and the building and floor are the most common among them.
public struct BestMatchVoteLocator<Key: Hashable & Comparable & Sendable>: WiFiLocator {
    public let index: FingerprintIndex<Key>
    public var method: String { "best-match-vote" }

    public init(index: FingerprintIndex<Key>) {
        self.index = index
    }

    public func locate(_ readings: [Key: Double]) -> WiFiFix? {
        var votes = [Double](repeating: 0, count: index.count)
        var voted: [Int] = []
        var closest: [Int] = []
        // In list order, so that split votes are added up in the same order every run.
        let heard = readings.compactMap { key, rssi in index.column[key].map { (column: $0, rssi: rssi) } }
        for (c, rssi) in heard.sorted(by: { $0.column < $1.column }) {
            let slots = Int(index.listStart[Int(c)])..<Int(index.listStart[Int(c) + 1])
            var gap = Double.infinity
            closest.removeAll(keepingCapacity: true)
            for slot in slots {
                let difference = abs(Double(index.listDBm[slot]) - rssi)
                if difference < gap {
                    gap = difference
                    closest.removeAll(keepingCapacity: true)
                }
                if difference == gap { closest.append(Int(index.listRecord[slot])) }
            }
            for record in closest {
                if votes[record] == 0 { voted.append(record) }
                votes[record] += 1 / Double(closest.count)
            }
        }
        guard let most = voted.map({ votes[$0] }).max() else { return nil }
        let winners = voted.filter { votes[$0] == most }.sorted()
        let building = mostCommon(winners.map { Int64(index.buildingOf[$0]) })
        let floor = mostCommon(winners.map { index.floorOf[$0] })
        let n = Double(winners.count)
        let x = winners.reduce(0) { $0 + index.xOf[$1] } / n
        let y = winners.reduce(0) { $0 + index.yOf[$1] } / n
        let spread = winners.reduce(0) { sum, r in
            let dx = index.xOf[r] - x, dy = index.yOf[r] - y
            return sum + dx * dx + dy * dy
        }
        return WiFiFix(
            estimate: PositionEstimate(floorID: floor, x: x, y: y, accuracyMetres: (spread / n).squareRoot(), method: method),
            building: index.buildings[Int(building)],
            nearestLocationID: index.locationOf[winners[0]]
        )
    }

    /// The most frequent value; among equally frequent ones, the first in `values`.
    private func mostCommon(_ values: [Int64]) -> Int64 {
        var counts: [Int64: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return values.max { counts[$0, default: 0] < counts[$1, default: 0] } ?? 0
    }
}
