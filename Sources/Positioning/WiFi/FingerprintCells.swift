/// Fingerprints grouped into small cells of neighbours on one floor, each cell with the largest
/// value any of its fingerprints has for every radio. A cell's maxima bound how much any of its
/// fingerprints can share with a scan, so a search can skip every cell that cannot hold a
/// fingerprint nearer than those it has found, and compute distances only for the rest.
///
/// Cells are the leaves of a k-d split of each (building, floor) by position, at most `capacity`
/// fingerprints each: neighbours hear much the same radios, which keeps the maxima, and so the
/// bounds, close to what each fingerprint hears. The split depends only on the fingerprints'
/// order and coordinates, so it is the same build after build.
struct FingerprintCells: Sendable {
    /// At most this many fingerprints per cell. Smaller cells give tighter bounds but more cells
    /// to bound per query; a count of the work on WiFine's test scans (NumPy, ahead of this code)
    /// put 16 below 32 and 64.
    static var capacity: Int { 16 }

    // Per cell.
    let building: [Int32]
    let floor: [Int64]
    /// The smallest and largest total of a member fingerprint.
    let smallestTotal: [Double]
    let largestTotal: [Double]
    /// The cell's fingerprints are `member[memberStart[c]..<memberStart[c + 1]]`.
    let memberStart: [Int32]
    let member: [Int32]
    /// By member slot (not fingerprint number), so that a cell's readings lie together in memory:
    /// each member's readings in radio order, and its total.
    let memberRows: FingerprintRows
    let memberTotal: [Double]

    // Per radio: the cells with a fingerprint hearing it, with the largest value among them.
    let listStart: [Int32]
    let listCell: [Int32]
    let listLargest: [Double]

    var count: Int { building.count }

    /// - Parameter rows: every fingerprint's readings as (radio number, value) in radio order, radio numbers below `radioCount`.
    init(
        buildingOf: [Int32], floorOf: [Int64], xOf: [Double], yOf: [Double], total: [Double],
        rows: FingerprintRows, radioCount: Int
    ) {
        var groupOf: [FloorKey: Int] = [:]
        var groups: [[Int32]] = []
        for fingerprint in buildingOf.indices {
            let key = FloorKey(building: buildingOf[fingerprint], floor: floorOf[fingerprint])
            if let g = groupOf[key] {
                groups[g].append(Int32(fingerprint))
            } else {
                groupOf[key] = groups.count
                groups.append([Int32(fingerprint)])
            }
        }
        var leaves: [ArraySlice<Int32>] = []
        for group in groups {
            Self.split(group[...], x: xOf, y: yOf, into: &leaves)
        }
        var building: [Int32] = [], floor: [Int64] = [], smallestTotal: [Double] = [], largestTotal: [Double] = []
        var memberStart: [Int32] = [0], member: [Int32] = []
        var rowStart: [Int32] = [0], rowColumn: [Int32] = [], rowValue: [Double] = []
        var entryCell: [Int32] = [], entryColumn: [Int32] = [], entryLargest: [Double] = []
        var largest = [Double](repeating: 0, count: radioCount)
        var touched: [Int32] = []
        for (cell, leaf) in leaves.enumerated() {
            building.append(buildingOf[Int(leaf.first!)])
            floor.append(floorOf[Int(leaf.first!)])
            smallestTotal.append(leaf.map { total[Int($0)] }.min()!)
            largestTotal.append(leaf.map { total[Int($0)] }.max()!)
            member.append(contentsOf: leaf)
            memberStart.append(Int32(member.count))
            touched.removeAll(keepingCapacity: true)
            for fingerprint in leaf {
                for entry in rows.range(of: Int(fingerprint)) {
                    let c = Int(rows.column[entry])
                    if largest[c] == 0 { touched.append(Int32(c)) }
                    largest[c] = max(largest[c], rows.value[entry])
                    rowColumn.append(rows.column[entry])
                    rowValue.append(rows.value[entry])
                }
                rowStart.append(Int32(rowColumn.count))
            }
            for c in touched {
                entryCell.append(Int32(cell))
                entryColumn.append(c)
                entryLargest.append(largest[Int(c)])
                largest[Int(c)] = 0
            }
        }
        // One list per radio, cells in order within each.
        let layout = RadioListLayout(columns: entryColumn, radioCount: radioCount)
        self.building = building
        self.floor = floor
        self.smallestTotal = smallestTotal
        self.largestTotal = largestTotal
        self.memberStart = memberStart
        self.member = member
        memberRows = FingerprintRows(start: rowStart, column: rowColumn, value: rowValue)
        memberTotal = member.map { total[Int($0)] }
        listStart = layout.start
        listCell = layout.arrange(entryCell, empty: 0)
        listLargest = layout.arrange(entryLargest, empty: 0)
    }

    /// Halves `fingerprints` across the wider of its x and y extents (at the median, ties by
    /// fingerprint number) until every part holds at most `capacity`, appending the parts in order.
    private static func split(_ fingerprints: ArraySlice<Int32>, x: [Double], y: [Double], into leaves: inout [ArraySlice<Int32>]) {
        guard fingerprints.count > capacity else {
            leaves.append(fingerprints)
            return
        }
        let xs = fingerprints.map { x[Int($0)] }, ys = fingerprints.map { y[Int($0)] }
        let alongX = xs.max()! - xs.min()! >= ys.max()! - ys.min()!
        let coordinate = alongX ? x : y
        let sorted = fingerprints.sorted { a, b in
            let u = coordinate[Int(a)], v = coordinate[Int(b)]
            return u != v ? u < v : a < b
        }
        let half = sorted.count / 2
        split(sorted[..<half], x: x, y: y, into: &leaves)
        split(sorted[half...], x: x, y: y, into: &leaves)
    }

    /// Approximate heap bytes.
    var memoryBytes: Int {
        building.count * (4 + 8 + 8 + 8) + memberStart.count * 4 + member.count * (4 + 8) + memberRows.memoryBytes
            + listStart.count * 4 + listCell.count * 4 + listLargest.count * 8
    }
}

/// Each fingerprint's readings in radio order, as one compressed-row table.
struct FingerprintRows: Sendable {
    let start: [Int32]
    let column: [Int32]
    let value: [Double]

    func range(of fingerprint: Int) -> Range<Int> { Int(start[fingerprint])..<Int(start[fingerprint + 1]) }

    var memoryBytes: Int { start.count * 4 + column.count * 4 + value.count * 8 }
}

private struct FloorKey: Hashable {
    var building: Int32
    var floor: Int64
}
