/// Survey fingerprints arranged for fast Sørensen nearest-neighbour search: one inverted list per
/// radio, holding every fingerprint that heard it with its powed value (and raw dBm, for the
/// best-match vote).
///
/// Sørensen (Bray–Curtis) distance between powed vectors a and b is Σ|a−b| / Σ(a+b). Since
/// Σ|a−b| = Sa + Sb − 2·Σ min(a, b) and min is 0 wherever either side did not hear the radio, a query
/// only visits the lists of the radios it heard. Fingerprints sharing no radio with the query are at
/// distance 1, the largest possible.
///
/// Keys are Comparable so that everything is visited in one order, build after build and run after
/// run: sums of floating-point numbers then come out bit for bit the same and ties between equally
/// near fingerprints are settled the same way (Swift's dictionary order changes from run to run).
public struct FingerprintIndex<Key: Hashable & Comparable & Sendable>: Sendable {
    public let representation: PoweredRSSI
    /// Building names, in order of first appearance; fingerprints refer to them by position.
    public let buildings: [String]

    // Per fingerprint.
    let buildingOf: [Int32]
    let floorOf: [Int64]
    let xOf: [Double]
    let yOf: [Double]
    let locationOf: [Int64?]
    /// Σ of the fingerprint's powed values.
    let total: [Double]

    // Per radio: the fingerprints that heard it, as one compressed-row table.
    let column: [Key: Int32]
    let listStart: [Int32]
    let listRecord: [Int32]
    let listValue: [Double]
    let listDBm: [Float]

    /// The fingerprints in cells, with their readings, for `nearest(_:in:scope:reachRatio:)`.
    let cells: FingerprintCells

    /// How survey samples become fingerprints.
    public enum Grouping: Hashable, Sendable {
        /// One fingerprint per sample.
        case eachSample
        /// One fingerprint per surveyed location (same building, floor, x, y and location id): the
        /// mean of its samples' powed values, a sample that missed a radio counting 0. Its dBm for
        /// the best-match vote is the mean over the samples that heard the radio.
        case meanPerLocation
    }

    /// Builds the index. Readings the representation maps to 0 (too weak) are left out; a
    /// fingerprint left with none stays in the index but is never near a scan.
    public init(records: [FingerprintRecord<Key>], representation: PoweredRSSI = .standard, grouping: Grouping = .eachSample) {
        self.init(survey: SurveyReadings(records: records, representation: representation), records: records, rows: Array(records.indices), grouping: grouping)
    }

    /// The index of the records `rows` (in survey order) of `records`, whose usable readings `survey`
    /// holds: value for value the index of those records alone, in `survey`'s representation.
    init(survey: SurveyReadings<Key>, records: [FingerprintRecord<Key>], rows: [Int], grouping: Grouping) {
        self.representation = survey.representation
        var buildingNumber: [String: Int32] = [:]
        var buildings: [String] = []
        var buildingOf: [Int32] = [], floorOf: [Int64] = [], xOf: [Double] = [], yOf: [Double] = []
        var locationOf: [Int64?] = [], total: [Double] = []
        // Radios are numbered in key order among those the rows hear.
        let number = survey.numbering(of: rows)
        var column: [Key: Int32] = [:]
        for (c, key) in survey.keys.enumerated() where number[c] >= 0 { column[key] = number[c] }
        // One fingerprint per group, its entries in radio order.
        var entryColumn: [Int32] = [], entryValue: [Double] = [], entryDBm: [Float] = []
        var entryFingerprint: [Int32] = []
        var rowStart: [Int32] = [0]
        var readings: [(column: Int32, member: Int, value: Double, rssi: Double)] = []
        for group in survey.groups(of: rows, by: grouping) {
            let first = group[0]
            let fingerprint = Int32(total.count)
            // Fields read one by one: copying the record would retain its readings too.
            let building = records[first].building
            if let known = buildingNumber[building] {
                buildingOf.append(known)
            } else {
                buildingNumber[building] = Int32(buildings.count)
                buildingOf.append(Int32(buildings.count))
                buildings.append(building)
            }
            floorOf.append(records[first].floorID)
            xOf.append(records[first].x)
            yOf.append(records[first].y)
            locationOf.append(records[first].locationID)
            // The group's readings ordered by radio then sample: each radio's readings are
            // adjacent and always added up in the same order (one sample's are in radio order already).
            readings.removeAll(keepingCapacity: true)
            for member in group {
                for r in survey.range(of: member) {
                    readings.append((number[Int(survey.radio[r])], member, survey.value[r], survey.rssi[r]))
                }
            }
            if group.count > 1 {
                readings.sort { $0.column != $1.column ? $0.column < $1.column : $0.member < $1.member }
            }
            var sum = 0.0
            var next = 0
            while next < readings.count {
                let c = readings[next].column
                var value = 0.0, dBm = 0.0, heard = 0
                while next < readings.count, readings[next].column == c {
                    value += readings[next].value
                    dBm += readings[next].rssi
                    heard += 1
                    next += 1
                }
                value /= Double(group.count)
                sum += value
                entryColumn.append(c)
                entryFingerprint.append(fingerprint)
                entryValue.append(value)
                entryDBm.append(Float(dBm / Double(heard)))
            }
            total.append(sum)
            rowStart.append(Int32(entryColumn.count))
        }
        // One contiguous list per radio.
        let layout = RadioListLayout(columns: entryColumn, radioCount: column.count)
        self.buildings = buildings
        self.buildingOf = buildingOf
        self.floorOf = floorOf
        self.xOf = xOf
        self.yOf = yOf
        self.locationOf = locationOf
        self.total = total
        self.column = column
        listStart = layout.start
        listRecord = layout.arrange(entryFingerprint, empty: 0)
        listValue = layout.arrange(entryValue, empty: 0)
        listDBm = layout.arrange(entryDBm, empty: 0)
        cells = FingerprintCells(
            buildingOf: buildingOf, floorOf: floorOf, xOf: xOf, yOf: yOf, total: total,
            rows: FingerprintRows(start: rowStart, column: entryColumn, value: entryValue), radioCount: column.count)
    }

    /// Record numbers of each fingerprint-to-be, in order of first appearance.
    static func groups(of records: [FingerprintRecord<Key>], by grouping: Grouping) -> [[Int]] {
        switch grouping {
        case .eachSample:
            return records.indices.map { [$0] }
        case .meanPerLocation:
            var groupOf: [SurveyedPlace: Int] = [:]
            var groups: [[Int]] = []
            for (r, record) in records.enumerated() {
                let place = SurveyedPlace(record)
                if let g = groupOf[place] {
                    groups[g].append(r)
                } else {
                    groupOf[place] = groups.count
                    groups.append([r])
                }
            }
            return groups
        }
    }

    /// Whether no two records are of the same location, so that grouping by location changes
    /// nothing: the `.meanPerLocation` index is then the `.eachSample` one, value for value.
    public static func eachSampleIsALocation(_ records: [FingerprintRecord<Key>]) -> Bool {
        groups(of: records, by: .meanPerLocation).count == records.count
    }

    /// Number of fingerprints (samples, or locations when grouped).
    public var count: Int { total.count }

    /// Number of distinct radios heard in the survey.
    public var radioCount: Int { column.count }

    /// Approximate heap bytes held by the index (arrays' element storage and the key table).
    public var memoryBytes: Int {
        buildingOf.count * 4 + floorOf.count * 8 + (xOf.count + yOf.count + total.count) * 8
            + locationOf.count * MemoryLayout<Int64?>.stride
            + listStart.count * 4 + listRecord.count * 4 + listValue.count * 8 + listDBm.count * 4
            + column.capacity * (MemoryLayout<Key>.stride + MemoryLayout<Int32>.stride + 1)
            + cells.memoryBytes
    }
}
