/// Reads the UJIIndoorLoc CSV files (`trainingData.csv`, `validationData.csv`) from their bytes:
/// a header of `WAP001…WAPnnn` followed by the nine position and collection columns, then one
/// sample per line (LF or CRLF). RSSI may be decimal (`-53.50`, as published averaged scans are),
/// there may be any number of access-point columns, coordinates are whatever metres the file uses
/// (EPSG:3857 in UJIIndoorLoc itself, a local frame in the fingerprint suite) and floors and
/// buildings any integers. The bytes are walked directly, without making Swift strings, so the
/// 42 MB training file reads in a fraction of a second.
public enum UJIIndoorLoc {
    /// The RSSI the dataset writes for an access point that was not detected.
    public static let notDetected = 100

    /// The columns after the access points, in file order.
    public static let trailingColumns = [
        "LONGITUDE", "LATITUDE", "FLOOR", "BUILDINGID", "SPACEID", "RELATIVEPOSITION", "USERID", "PHONEID", "TIMESTAMP",
    ]

    /// Every sample of the file, in file order.
    ///
    /// Throws on the first problem, naming its line and column: a header that is not
    /// `WAP001…WAPnnn` plus the nine trailing columns, a line with another number of fields, a field
    /// that is not a number (RSSI, coordinates) or an integer (the other columns), or an RSSI that
    /// is neither ≤ 0 dBm nor 100 ("not detected"). A row that hears nothing is kept, with no readings.
    public static func parse(_ bytes: [UInt8]) throws(UJIIndoorLocError) -> [UJIIndoorLocSample] {
        var cursor = CSVLineCursor(bytes)
        guard let header = cursor.nextLine() else {
            throw UJIIndoorLocError(line: 1, reason: "the file is empty; expected a header of WAP001… and \(trailingColumns.joined(separator: ","))")
        }
        let names = header.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let accessPoints = try checkHeader(names)
        var samples: [UJIIndoorLocSample] = []
        samples.reserveCapacity(bytes.count / (accessPoints * 4 + 60))
        while let line = cursor.nextLine() {
            var fields = CSVFieldReader(line: line, lineNumber: cursor.lineNumber, names: names)
            var readings: [Int: Double] = [:]
            for wap in 1...accessPoints {
                let rssi = try fields.decimal()
                if rssi == Double(notDetected) { continue }
                guard rssi <= 0 else {
                    throw fields.error("RSSI \(rssi.formatted) is neither ≤ 0 dBm nor \(notDetected) (not detected)")
                }
                readings[wap] = rssi
            }
            samples.append(UJIIndoorLocSample(
                readings: readings,
                longitude: try fields.real(),
                latitude: try fields.real(),
                floor: try fields.integer(),
                buildingID: try fields.integer(),
                spaceID: try fields.integer(),
                relativePosition: try fields.integer(),
                userID: try fields.integer(),
                phoneID: try fields.integer(),
                timestamp: try fields.integer()
            ))
            try fields.expectEnd()
        }
        return samples
    }

    /// The number of access-point columns, after checking every header name.
    private static func checkHeader(_ names: [String]) throws(UJIIndoorLocError) -> Int {
        let accessPoints = names.count - trailingColumns.count
        guard accessPoints >= 1 else {
            throw UJIIndoorLocError(line: 1, reason: "the header has \(names.count) columns; expected WAP001… and \(trailingColumns.joined(separator: ","))")
        }
        for (offset, name) in names.enumerated() {
            let expected = offset < accessPoints ? wapName(offset + 1) : trailingColumns[offset - accessPoints]
            guard name == expected else {
                throw UJIIndoorLocError(line: 1, column: offset + 1, reason: "header says \"\(name)\", expected \"\(expected)\"")
            }
        }
        return accessPoints
    }

    /// `WAP001` for 1: three digits at least, as the dataset writes them.
    static func wapName(_ number: Int) -> String {
        let digits = String(number)
        return "WAP" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }
}

extension Double {
    /// `50` for 50.0, `50.5` otherwise: an RSSI as the file most likely wrote it.
    fileprivate var formatted: String { rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
