/// The k candidates of smallest distance seen so far, kept sorted (nearest first). Equal distances
/// are ordered by record number, so the result does not depend on the order of the offers.
struct NearestFingerprints {
    let capacity: Int
    private(set) var distances: [Double] = []
    private(set) var records: [Int32] = []

    init(capacity: Int) {
        self.capacity = max(capacity, 0)
        distances.reserveCapacity(self.capacity)
        records.reserveCapacity(self.capacity)
    }

    mutating func offer(_ distance: Double, _ record: Int32) {
        if distances.count == capacity {
            guard let worst = distances.last, let worstRecord = records.last,
                  distance < worst || (distance == worst && record < worstRecord)
            else { return }
            distances.removeLast()
            records.removeLast()
        }
        var slot = distances.count
        while slot > 0, distances[slot - 1] > distance || (distances[slot - 1] == distance && records[slot - 1] > record) {
            slot -= 1
        }
        distances.insert(distance, at: slot)
        records.insert(record, at: slot)
    }

    var isEmpty: Bool { records.isEmpty }
}
