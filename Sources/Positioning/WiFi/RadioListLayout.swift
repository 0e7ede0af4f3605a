/// Where each of a table's entries goes when they are regrouped as one list per radio (a stable
/// counting sort): radio c's list is `start[c]..<start[c + 1]`, entry e goes to `slot[e]`, and
/// entries of one radio keep their order.
struct RadioListLayout {
    let start: [Int32]
    let slot: [Int]

    /// - Parameter columns: each entry's radio number, below `radioCount`.
    init(columns: [Int32], radioCount: Int) {
        var start = [Int32](repeating: 0, count: radioCount + 1)
        for c in columns { start[Int(c) + 1] += 1 }
        for c in 0..<radioCount { start[c + 1] += start[c] }
        var fill = start
        slot = columns.map { c in
            defer { fill[Int(c)] += 1 }
            return Int(fill[Int(c)])
        }
        self.start = start
    }

    /// `values` rearranged into the lists.
    func arrange<Value>(_ values: [Value], empty: Value) -> [Value] {
        var arranged = [Value](repeating: empty, count: values.count)
        for (entry, value) in values.enumerated() { arranged[slot[entry]] = value }
        return arranged
    }
}
