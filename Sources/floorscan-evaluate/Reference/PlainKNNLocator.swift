import Positioning

/// The plain kNN reference that the data folders' READMEs give their figures for (`knn_reference.jsonl`,
/// the suite's "kNN ref" column): the k = 3 nearest survey samples by Euclidean distance on dBm, a
/// radio not heard counting −105 dBm; the position is the unweighted mean of their x, y; building
/// and floor are each the majority label of the three (a tie goes to the nearest one's label).
/// A yardstick measured beside the default on any data in the UJIIndoorLoc layout, not a product method.
///
/// Distances come from an inverted list: with v = dBm + 105 (0 when not heard),
/// |a − b|² = |a|² + |b|² − 2 a·b, and a·b runs over the radios both heard. A radio only the scan
/// heard adds the same amount to every distance and so changes no ranking. Unlike the default it
/// answers even a scan sharing no radio with the survey, as the reference does. Equal distances
/// rank in survey order.
struct PlainKNNLocator: WiFiLocator {
    typealias Key = Int

    static var notHeardDBm: Double { -105 }

    let neighbours: Int
    let xOf: [Double]
    let yOf: [Double]
    let floorOf: [Int64]
    let buildingOf: [String]
    /// |v|² of each sample.
    let squaredNorms: [Double]
    /// Per radio, the samples that heard it and their v.
    let postings: [Int: [(sample: Int, value: Double)]]

    var method: String { "plain-knn" }

    init(records: [FingerprintRecord<Int>], neighbours: Int = 3) {
        self.neighbours = max(neighbours, 1)
        xOf = records.map(\.x)
        yOf = records.map(\.y)
        floorOf = records.map(\.floorID)
        buildingOf = records.map(\.building)
        var postings: [Int: [(sample: Int, value: Double)]] = [:]
        var norms = [Double](repeating: 0, count: records.count)
        for (sample, record) in records.enumerated() {
            for (radio, dBm) in record.readings.sorted(by: { $0.key < $1.key }) {
                let value = dBm - Self.notHeardDBm
                norms[sample] += value * value
                postings[radio, default: []].append((sample, value))
            }
        }
        self.postings = postings
        squaredNorms = norms
    }

    /// Rough heap bytes: three numbers per sample and two per posting.
    var memoryBytes: Int { squaredNorms.count * 24 + postings.values.reduce(0) { $0 + $1.count * 16 } }

    /// Nil only when the survey is empty.
    func locate(_ readings: [Int: Double]) -> WiFiFix? {
        guard !squaredNorms.isEmpty else { return nil }
        var dot = [Double](repeating: 0, count: squaredNorms.count)
        var scanNorm = 0.0
        for (radio, dBm) in readings.sorted(by: { $0.key < $1.key }) {
            let value = dBm - Self.notHeardDBm
            scanNorm += value * value
            for posting in postings[radio] ?? [] { dot[posting.sample] += value * posting.value }
        }
        // The k smallest distances, kept sorted; a later sample only displaces a strictly farther one.
        var nearest: [(distance: Double, sample: Int)] = []
        nearest.reserveCapacity(neighbours + 1)
        for sample in dot.indices {
            let distance = squaredNorms[sample] + scanNorm - 2 * dot[sample]
            guard nearest.count < neighbours || distance < nearest[nearest.count - 1].distance else { continue }
            let at = nearest.firstIndex { $0.distance > distance } ?? nearest.count
            nearest.insert((distance, sample), at: at)
            if nearest.count > neighbours { nearest.removeLast() }
        }
        let samples = nearest.map(\.sample)
        let x = samples.map { xOf[$0] }.reduce(0, +) / Double(samples.count)
        let y = samples.map { yOf[$0] }.reduce(0, +) / Double(samples.count)
        return WiFiFix(
            estimate: PositionEstimate(
                floorID: Self.majority(samples.map { floorOf[$0] }), x: x, y: y, accuracyMetres: 0, method: method),
            building: Self.majority(samples.map { buildingOf[$0] }), nearestLocationID: nil)
    }

    /// The most frequent of `labels` (nearest first); on a tie, the one that comes first.
    static func majority<Label: Hashable>(_ labels: [Label]) -> Label {
        var counts: [Label: Int] = [:]
        for label in labels { counts[label, default: 0] += 1 }
        var best = labels[0]
        for label in labels where counts[label, default: 0] > counts[best, default: 0] { best = label }
        return best
    }
}
