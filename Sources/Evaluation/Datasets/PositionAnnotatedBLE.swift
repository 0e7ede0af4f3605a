import Foundation

/// Parsers for the Position Annotated BLE RSSI Dataset (Daniş et al., 2022): 12 fixed receivers
/// at known 3-D positions logging the RSSI of one beacon placed at surveyed points or carried
/// along walked tracks. RSSI values ≥ 0 dBm (impossible; 144 in the survey) are dropped and
/// counted, as the dataset's notes advise.
public enum PositionAnnotatedBLE {
    /// A fixed receiver from `cnf/tetam.dev`.
    public struct Receiver: Hashable, Sendable {
        /// MAC without separators, lower case, as the track files name it.
        public var mac: String
        /// "sensor10" … "sensor42", as the survey files name it.
        public var alias: String
        public var x: Double
        public var y: Double
        public var z: Double
    }

    /// One packet of a walked track: who heard it, how loud, and where the beacon was.
    public struct TrackSample: Hashable, Sendable {
        /// UNIX seconds.
        public var time: Double
        public var receiverMAC: String
        public var rssi: Double
        public var x: Double
        public var y: Double
        public var z: Double
    }

    /// A surveyed point (set 1 or 2) with each receiver's RSSI statistics there.
    public struct SurveyPoint: Hashable, Sendable {
        public var set: Int
        public var x: Double
        public var y: Double
        public var z: Double
        /// Receiver alias → statistics of all samples at the point.
        public var receivers: [String: EmitterStatistics]
    }

    /// One raw survey sample (`hst_first300s.csv`).
    public struct SurveySample: Hashable, Sendable {
        public var set: Int
        public var x: Double
        public var y: Double
        public var z: Double
        public var receiverAlias: String
        /// Seconds since the point's first sample.
        public var time: Double
        public var rssi: Double
    }

    /// `cnf/tetam.dev`: `Dongles:{<mac>: [[x, y, z], colour, alias], …} Beacons:{…}`.
    /// Throws when the `Dongles:` object is missing, is not JSON, or an entry lacks a 3-number
    /// position or an alias.
    public static func receivers(_ bytes: [UInt8]) throws(DatasetParseError) -> [Receiver] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let start = text.range(of: "Dongles:") else { throw DatasetParseError(line: 0, "no \"Dongles:\" table") }
        let rest = text[start.upperBound...]
        let end = rest.range(of: "Beacons:")?.lowerBound ?? rest.endIndex
        let json = Data(rest[..<end].utf8)
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw DatasetParseError(line: 0, "the \"Dongles:\" table is not a JSON object")
        }
        var receivers: [Receiver] = []
        for (mac, value) in object {
            guard let entry = value as? [Any], entry.count >= 3,
                  let position = entry[0] as? [Any], position.count == 3,
                  let x = (position[0] as? NSNumber)?.doubleValue, let y = (position[1] as? NSNumber)?.doubleValue,
                  let z = (position[2] as? NSNumber)?.doubleValue, let alias = entry[2] as? String
            else {
                throw DatasetParseError(line: 0, "receiver \(mac) needs [[x, y, z], colour, alias]")
            }
            receivers.append(Receiver(mac: mac.lowercased(), alias: alias, x: x, y: y, z: z))
        }
        return receivers.sorted { $0.alias < $1.alias }
    }

    /// A track file: `time,receiverMAC,beaconMAC,RSSI,x,y,z,r11…r33`. Returns the samples in file
    /// order and how many impossible RSSI values were dropped.
    public static func track(_ bytes: [UInt8]) throws(DatasetParseError) -> (samples: [TrackSample], dropped: Int) {
        var samples: [TrackSample] = []
        var dropped = 0
        try forEachCSVLine(bytes) { line, fields throws(DatasetParseError) in
            guard fields.count >= 7 else { throw DatasetParseError(line: line, "expected at least 7 fields, got \(fields.count)") }
            let rssi = try number(fields[3], "RSSI", line: line)
            guard rssi < 0 else { dropped += 1; return }
            samples.append(TrackSample(
                time: try number(fields[0], "timestamp", line: line), receiverMAC: String(fields[1]).lowercased(), rssi: rssi,
                x: try number(fields[4], "x", line: line), y: try number(fields[5], "y", line: line), z: try number(fields[6], "z", line: line)
            ))
        }
        return (samples, dropped)
    }

    /// `hst_histograms.csv`: `set,x,y,z,sensor,sensor_mac,rssi_dbm,count` → one point per
    /// (set, x, y, z), with count-weighted statistics per receiver.
    public static func surveyPoints(_ bytes: [UInt8]) throws(DatasetParseError) -> [SurveyPoint] {
        struct Key: Hashable { var set: Int; var x, y, z: Double }
        var sums: [Key: [String: (n: Double, s: Double, ss: Double)]] = [:]
        var order: [Key] = []
        try forEachCSVLine(bytes) { line, fields throws(DatasetParseError) in
            if line == 1, fields.first == "set" { return }
            guard fields.count == 8 else { throw DatasetParseError(line: line, "expected 8 fields, got \(fields.count)") }
            guard let set = Int(fields[0]) else { throw DatasetParseError(line: line, "set must be a whole number, got \"\(fields[0])\"") }
            let key = Key(set: set, x: try number(fields[1], "x", line: line), y: try number(fields[2], "y", line: line), z: try number(fields[3], "z", line: line))
            let rssi = try number(fields[6], "rssi_dbm", line: line)
            let count = try number(fields[7], "count", line: line)
            guard rssi < 0, count > 0 else { return }
            if sums[key] == nil { order.append(key) }
            var entry = sums[key, default: [:]][String(fields[4]), default: (0, 0, 0)]
            entry = (entry.n + count, entry.s + count * rssi, entry.ss + count * rssi * rssi)
            sums[key, default: [:]][String(fields[4])] = entry
        }
        return order.map { key in
            SurveyPoint(set: key.set, x: key.x, y: key.y, z: key.z, receivers: (sums[key] ?? [:]).mapValues { sum in
                let mean = sum.s / sum.n
                return EmitterStatistics(mean: mean, spread: max(sum.ss / sum.n - mean * mean, 0).squareRoot(), count: Int(sum.n))
            })
        }
    }

    /// `hst_first300s.csv`: `set,x,y,z,sensor,t_rel_s,rssi_dbm`. Returns the samples and how many
    /// impossible RSSI values were dropped.
    public static func surveySamples(_ bytes: [UInt8]) throws(DatasetParseError) -> (samples: [SurveySample], dropped: Int) {
        var samples: [SurveySample] = []
        var dropped = 0
        try forEachCSVLine(bytes) { line, fields throws(DatasetParseError) in
            if line == 1, fields.first == "set" { return }
            guard fields.count == 7 else { throw DatasetParseError(line: line, "expected 7 fields, got \(fields.count)") }
            guard let set = Int(fields[0]) else { throw DatasetParseError(line: line, "set must be a whole number, got \"\(fields[0])\"") }
            let rssi = try number(fields[6], "rssi_dbm", line: line)
            guard rssi < 0 else { dropped += 1; return }
            samples.append(SurveySample(
                set: set, x: try number(fields[1], "x", line: line), y: try number(fields[2], "y", line: line),
                z: try number(fields[3], "z", line: line), receiverAlias: String(fields[4]),
                time: try number(fields[5], "t_rel_s", line: line), rssi: rssi
            ))
        }
        return (samples, dropped)
    }
}

/// Mean, spread (population standard deviation) and count of one emitter's RSSI somewhere.
public struct EmitterStatistics: Hashable, Sendable {
    public var mean: Double
    public var spread: Double
    public var count: Int

    public init(mean: Double, spread: Double, count: Int) {
        self.mean = mean
        self.spread = spread
        self.count = count
    }
}
