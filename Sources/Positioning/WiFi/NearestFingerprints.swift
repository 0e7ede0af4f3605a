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

    /// Whether it holds `capacity` candidates; until then every offer was kept.
    var isFull: Bool { records.count == capacity }

    /// The `k` nearest of these that satisfy `include`, when that is sure to be the `k` nearest of
    /// all the offers that satisfy it: when at least `k` of these do, or when every offer was kept.
    /// Nil otherwise.
    func restricted(to k: Int, where include: (Int32) -> Bool) -> NearestFingerprints? {
        var kept = NearestFingerprints(capacity: k)
        for (distance, record) in zip(distances, records) where include(record) && !kept.isFull {
            kept.offer(distance, record)
        }
        return kept.isFull || !isFull ? kept : nil
    }
}
