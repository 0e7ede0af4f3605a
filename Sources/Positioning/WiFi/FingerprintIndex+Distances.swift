/// The fingerprints sharing at least one radio with a scan, with their Sørensen distance to it.
struct SharedRadioDistances {
    var records: [Int32] = []
    var distances: [Double] = []
}

extension FingerprintIndex {
    /// Ranks every fingerprint sharing a radio with the scan, visiting the inverted lists of the
    /// radios it heard: the exhaustive answer that `nearest(_:in:scope:reachRatio:)` must equal
    /// (tests hold it to that). Radios the survey never heard are left out of the scan, as are
    /// readings the representation maps to 0; nil when nothing is left.
    func distances(to readings: [Key: Double]) -> SharedRadioDistances? {
        var common = [Double](repeating: 0, count: count)
        var result = SharedRadioDistances()
        var scanTotal = 0.0
        let scan = heardRadios(in: readings)
        // The inner loop runs ~10⁴ times per scan; unchecked buffers keep it to the arithmetic.
        common.withUnsafeMutableBufferPointer { common in
            listRecord.withUnsafeBufferPointer { listRecord in
                listValue.withUnsafeBufferPointer { listValue in
                    for (c, value) in scan {
                        scanTotal += value
                        for slot in Int(listStart[Int(c)])..<Int(listStart[Int(c) + 1]) {
                            let record = Int(listRecord[slot])
                            // Both sides are > 0 here, so a record whose sum is still 0 is met for the first time.
                            if common[record] == 0 { result.records.append(Int32(record)) }
                            common[record] += min(value, listValue[slot])
                        }
                    }
                }
            }
        }
        guard scanTotal > 0 else { return nil }
        result.distances.reserveCapacity(result.records.count)
        for record in result.records {
            let sum = scanTotal + total[Int(record)]
            result.distances.append((sum - 2 * common[Int(record)]) / sum)
        }
        return result
    }

    /// The scan's radios known to the index with a representation above 0, as (list number, value)
    /// in list order, so that sums over them are always added up in the same order.
    func heardRadios(in readings: [Key: Double]) -> [(column: Int32, value: Double)] {
        var heard: [(column: Int32, value: Double)] = []
        heard.reserveCapacity(readings.count)
        for (key, rssi) in readings {
            guard let c = column[key] else { continue }
            let value = representation.value(rssi)
            if value > 0 { heard.append((c, value)) }
        }
        heard.sort { $0.column < $1.column }
        return heard
    }
}
