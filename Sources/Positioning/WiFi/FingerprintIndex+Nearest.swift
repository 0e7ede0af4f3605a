/// One scan's search of one index: the scan in the index's radio numbering, a lower bound on the
/// distance of each cell's fingerprints, and the distances computed so far, which later searches
/// of the same scan reuse.
struct FingerprintSearch {
    /// The value of every radio of the index, 0 where the scan did not hear it.
    let values: [Double]
    /// Σ of the scan's values, added up in radio order.
    let total: Double
    /// Per cell, a lower bound on its fingerprints' distances; infinity for a cell none of whose
    /// fingerprints shares a radio with the scan.
    let cellBound: [Double]
    /// The cells of finite bound, in no particular order: the only ones a search looks at, so
    /// that a query's work does not grow with the parts of the map that hear none of its radios.
    let candidateCells: [Int32]
    /// Where the distances of a cell's members start in `distances`; -1 for a cell not yet computed.
    var computedStart: [Int32]
    /// Member distances of the computed cells, in member order; infinity for a fingerprint sharing no radio.
    var distances: [Double] = []
}

/// The fingerprints a search looks at.
struct FingerprintScope {
    var building: Int32?
    var floor: Int64?

    static var everywhere: Self { Self(building: nil, floor: nil) }

    func contains(building: Int32, floor: Int64) -> Bool {
        (self.building ?? building) == building && (self.floor ?? floor) == floor
    }
}

extension FingerprintIndex {
    /// Starts a search for the scan; nil when it shares no radio with the survey (nothing to compare).
    func search(_ readings: [Key: Double]) -> FingerprintSearch? {
        search(heard: heardRadios(in: readings))
    }

    /// Starts a search for a scan given as `heardRadios(in:)` gives it; nil when it is empty.
    func search(heard: [(column: Int32, value: Double)]) -> FingerprintSearch? {
        var values = [Double](repeating: 0, count: radioCount)
        var total = 0.0
        for (c, value) in heard {
            total += value
            values[Int(c)] = value
        }
        guard total > 0 else { return nil }
        let (cellBound, candidateCells) = cellBounds(heard: heard, total: total)
        return FingerprintSearch(
            values: values, total: total, cellBound: cellBound, candidateCells: candidateCells,
            computedStart: [Int32](repeating: -1, count: cells.count))
    }

    /// The `k` fingerprints of `scope` nearest to the scan by Sørensen distance, among those sharing
    /// a radio with it: the same fingerprints, distances (bit for bit) and order as ranking every
    /// such fingerprint with `distances(to:)`, but computed only for the cells whose bound does not
    /// rule them out.
    ///
    /// With a finite `reachRatio` the answer is only complete up to `reachRatio` × the nearest
    /// distance (when no fingerprint can be at distance 0): fingerprints beyond it may be missing,
    /// for a caller that ignores them anyway.
    func nearest(_ k: Int, in search: inout FingerprintSearch, scope: FingerprintScope, reachRatio: Double = .infinity) -> NearestFingerprints {
        var nearest = NearestFingerprints(capacity: max(k, 1))
        let inScope = search.candidateCells.map(Int.init).filter {
            scope.contains(building: cells.building[$0], floor: cells.floor[$0])
        }
        // First the cells that may hold a fingerprint at distance 0 (whose reach is unbounded),
        // then those of smallest bound, so that the threshold is tight before the sweep.
        var seeds = NearestFingerprints(capacity: 2 + (k + FingerprintCells.capacity - 1) / FingerprintCells.capacity)
        for cell in inScope { seeds.offer(search.cellBound[cell], Int32(cell)) }
        var offered = [Bool](repeating: false, count: cells.count)
        for cell in inScope.filter({ search.cellBound[$0] <= Self.boundSlack }) + seeds.records.map(Int.init) where !offered[cell] {
            offered[cell] = true
            offerMembers(of: cell, to: &nearest, search: &search)
        }
        // Every fingerprint that may be at distance 0 has been offered: a nearest distance above 0
        // now means none is at 0, so the reach is finite and bounds the rest.
        var threshold: Double {
            var limit = nearest.isFull ? nearest.distances[nearest.capacity - 1] : .infinity
            if reachRatio.isFinite, let best = nearest.distances.first, best > 0 { limit = min(limit, best * reachRatio) }
            return limit + Self.boundSlack
        }
        for cell in inScope where !offered[cell] && search.cellBound[cell] <= threshold {
            offerMembers(of: cell, to: &nearest, search: &search)
        }
        return nearest
    }

    /// Lower bounds are compared with a margin far above the rounding of the sums behind them.
    private static var boundSlack: Double { 1e-9 }

    /// For every cell, a lower bound on the distance of its fingerprints to a scan whose values sum
    /// to `total` (infinity when none shares a radio with it). A member shares at most
    /// U = Σ min(scan, cell's largest) with the scan, and at most its own total T, so its
    /// similarity 2·min(U, T) / (total + T) is at most its value at T = U, or at the end of the
    /// cell's range of totals nearest U.
    private func cellBounds(heard: [(column: Int32, value: Double)], total: Double) -> (bound: [Double], touched: [Int32]) {
        var shared = [Double](repeating: 0, count: cells.count)
        var touched: [Int32] = []
        shared.withUnsafeMutableBufferPointer { shared in
            cells.listCell.withUnsafeBufferPointer { listCell in
                cells.listLargest.withUnsafeBufferPointer { listLargest in
                    for (c, value) in heard {
                        for slot in Int(cells.listStart[Int(c)])..<Int(cells.listStart[Int(c) + 1]) {
                            let cell = Int(listCell[slot])
                            // Both sides are > 0 here, so a cell whose sum is still 0 is met for the first time.
                            if shared[cell] == 0 { touched.append(Int32(cell)) }
                            shared[cell] += min(value, listLargest[slot])
                        }
                    }
                }
            }
        }
        var bound = [Double](repeating: .infinity, count: cells.count)
        for cell in touched.lazy.map(Int.init) {
            let most = shared[cell]
            let memberTotal = min(max(most, cells.smallestTotal[cell]), cells.largestTotal[cell])
            bound[cell] = 1 - 2 * min(most, memberTotal) / (total + memberTotal)
        }
        return (bound, touched)
    }

    /// Offers every member of `cell` that shares a radio with the scan at its exact distance,
    /// computing the cell's distances the first time: the shared sum is added up in radio order,
    /// as `distances(to:)` adds it (adding the 0 of a radio one side did not hear changes no bit).
    private func offerMembers(of cell: Int, to nearest: inout NearestFingerprints, search: inout FingerprintSearch) {
        let members = Int(cells.memberStart[cell])..<Int(cells.memberStart[cell + 1])
        if search.computedStart[cell] < 0 {
            search.computedStart[cell] = Int32(search.distances.count)
            var distances = search.distances
            search.distances = []
            let scanTotal = search.total
            search.values.withUnsafeBufferPointer { values in
                cells.memberRows.column.withUnsafeBufferPointer { column in
                    cells.memberRows.value.withUnsafeBufferPointer { value in
                        // Two members at a time: each one's sum is still added up in its own
                        // radio order, but the two chains of additions overlap in the processor.
                        var m = members.lowerBound
                        while m < members.upperBound {
                            let a = cells.memberRows.range(of: m)
                            let b = m + 1 < members.upperBound ? cells.memberRows.range(of: m + 1) : a.upperBound..<a.upperBound
                            let paired = min(a.count, b.count)
                            var commonA = 0.0, commonB = 0.0
                            for i in 0..<paired {
                                let ea = a.lowerBound + i, eb = b.lowerBound + i
                                commonA += min(values[Int(column[ea])], value[ea])
                                commonB += min(values[Int(column[eb])], value[eb])
                            }
                            for entry in (a.lowerBound + paired)..<a.upperBound {
                                commonA += min(values[Int(column[entry])], value[entry])
                            }
                            for entry in (b.lowerBound + paired)..<b.upperBound {
                                commonB += min(values[Int(column[entry])], value[entry])
                            }
                            let sumA = scanTotal + cells.memberTotal[m]
                            distances.append(commonA > 0 ? (sumA - 2 * commonA) / sumA : .infinity)
                            if m + 1 < members.upperBound {
                                let sumB = scanTotal + cells.memberTotal[m + 1]
                                distances.append(commonB > 0 ? (sumB - 2 * commonB) / sumB : .infinity)
                            }
                            m += 2
                        }
                    }
                }
            }
            search.distances = distances
        }
        let start = Int(search.computedStart[cell])
        for (offset, m) in members.enumerated() where search.distances[start + offset].isFinite {
            nearest.offer(search.distances[start + offset], cells.member[m])
        }
    }
}
