/// A survey's usable readings in one representation, worked out once: each record's readings that
/// the representation maps above 0, as (radio, value, dBm) in radio order, radios numbered in key
/// order over the whole survey, and each record's place numbered. An index of any subset of the
/// records (a cross-validation fold) is built from it without hashing a key, raising a power or
/// sorting a sample's readings again, and a held-out record becomes a scan the same way; both come
/// out value for value as the records themselves would give (`FingerprintIndex(records:...)`,
/// `heardRadios(in:)`), since the subset's radio numbers keep the survey's key order.
struct SurveyReadings<Key: Hashable & Comparable & Sendable>: Sendable {
    let representation: PoweredRSSI
    /// Every radio with a usable reading somewhere in the survey, in key order.
    let keys: [Key]
    /// Record r's readings are `start[r]..<start[r + 1]`, in radio order.
    let start: [Int]
    let radio: [Int32]
    let value: [Double]
    let rssi: [Double]
    /// Each record's place (building, floor, x, y, location id), numbered in order of first appearance.
    let place: [Int32]
    let placeCount: Int

    init(records: [FingerprintRecord<Key>], representation: PoweredRSSI) {
        self.representation = representation
        var provisional: [Key: Int32] = [:]
        var unsortedStart: [Int] = [0], unsortedRadio: [Int32] = [], unsortedValue: [Double] = [], unsortedRSSI: [Double] = []
        unsortedStart.reserveCapacity(records.count + 1)
        var placeNumber: [SurveyedPlace: Int32] = [:]
        var place: [Int32] = []
        place.reserveCapacity(records.count)
        for record in records {
            for (key, rssi) in record.readings {
                let value = representation.value(rssi)
                guard value > 0 else { continue }
                let c: Int32
                if let known = provisional[key] {
                    c = known
                } else {
                    c = Int32(provisional.count)
                    provisional[key] = c
                }
                unsortedRadio.append(c)
                unsortedValue.append(value)
                unsortedRSSI.append(rssi)
            }
            unsortedStart.append(unsortedRadio.count)
            let surveyed = SurveyedPlace(record)
            if let known = placeNumber[surveyed] {
                place.append(known)
            } else {
                place.append(Int32(placeNumber.count))
                placeNumber[surveyed] = Int32(placeNumber.count)
            }
        }
        let sorted = provisional.sorted { $0.key < $1.key }
        var renumbered = [Int32](repeating: 0, count: sorted.count)
        for (number, radio) in sorted.enumerated() { renumbered[Int(radio.value)] = Int32(number) }
        // Each record's readings in radio order (a record hears a radio at most once).
        var radio: [Int32] = [], value: [Double] = [], rssi: [Double] = []
        radio.reserveCapacity(unsortedRadio.count)
        value.reserveCapacity(unsortedRadio.count)
        rssi.reserveCapacity(unsortedRadio.count)
        var order: [Int] = []
        for r in records.indices {
            order.removeAll(keepingCapacity: true)
            order.append(contentsOf: unsortedStart[r]..<unsortedStart[r + 1])
            order.sort { renumbered[Int(unsortedRadio[$0])] < renumbered[Int(unsortedRadio[$1])] }
            for e in order {
                radio.append(renumbered[Int(unsortedRadio[e])])
                value.append(unsortedValue[e])
                rssi.append(unsortedRSSI[e])
            }
        }
        keys = sorted.map(\.key)
        start = unsortedStart
        (self.radio, self.value, self.rssi) = (radio, value, rssi)
        self.place = place
        placeCount = placeNumber.count
    }

    func range(of record: Int) -> Range<Int> { start[record]..<start[record + 1] }

    /// The radio numbers of an index of the records `rows`: per survey radio, its rank among the
    /// radios those records hear (so key order still), or -1 when none of them hears it.
    func numbering(of rows: [Int]) -> [Int32] {
        var number = [Int32](repeating: -1, count: keys.count)
        for r in rows {
            for e in range(of: r) { number[Int(radio[e])] = 0 }
        }
        var count: Int32 = 0
        for c in number.indices where number[c] == 0 {
            number[c] = count
            count += 1
        }
        return number
    }

    /// Record `record` as a scan of an index numbered by `number`: its readings of radios the index
    /// knows, as (radio number, value) in radio order, as `heardRadios(in:)` gives them.
    func heard(_ record: Int, numberedBy number: [Int32]) -> [(column: Int32, value: Double)] {
        var heard: [(column: Int32, value: Double)] = []
        heard.reserveCapacity(start[record + 1] - start[record])
        for e in range(of: record) where number[Int(radio[e])] >= 0 {
            heard.append((number[Int(radio[e])], value[e]))
        }
        return heard
    }

    /// The records `rows` grouped as `grouping` asks, each group's members in survey order and the
    /// groups in order of their first member: what `FingerprintIndex.groups(of:by:)` gives for
    /// those records alone (as positions in `rows`' records).
    func groups(of rows: [Int], by grouping: FingerprintIndex<Key>.Grouping) -> [[Int]] {
        switch grouping {
        case .eachSample:
            return rows.map { [$0] }
        case .meanPerLocation:
            var groupOf = [Int](repeating: -1, count: placeCount)
            var groups: [[Int]] = []
            for r in rows {
                let p = Int(place[r])
                if groupOf[p] < 0 {
                    groupOf[p] = groups.count
                    groups.append([r])
                } else {
                    groups[groupOf[p]].append(r)
                }
            }
            return groups
        }
    }
}

/// What makes survey samples "the same location".
struct SurveyedPlace: Hashable {
    var building: String
    var floorID: Int64
    var x: Double
    var y: Double
    var locationID: Int64?

    init<Key>(_ record: FingerprintRecord<Key>) {
        (building, floorID, x, y, locationID) = (record.building, record.floorID, record.x, record.y, record.locationID)
    }
}
