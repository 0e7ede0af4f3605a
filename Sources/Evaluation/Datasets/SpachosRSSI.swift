import Foundation
import Positioning

/// Parsers for the RSSI Dataset for Indoor Localization Fingerprinting (Sadowski, Spachos,
/// Plataniotis, 2020): a Raspberry Pi 3 hearing three transmitters (nodes A, B, C) in three rooms.
public enum SpachosRSSI {
    public static let nodes = ["A", "B", "C"]

    /// A fingerprint or test point: where, and the mean RSSI (dBm, negative) of nodes A, B, C.
    public struct Point: Hashable, Sendable {
        /// The sheet's `Point` number, when it has that column.
        public var label: Int?
        public var x: Double
        public var y: Double
        /// Node name ("A", "B", "C") → RSSI, dBm.
        public var rssi: [String: Double]
    }

    /// Transmitter positions of scenario 3 in the sheets' frame, read off the dataset's figures
    /// (the files hold none; see the dataset README). Scenarios 1 and 2 are too ambiguous to list.
    public static let scenario3Transmitters: [String: (x: Double, y: Double)] = [
        "A": (0, 0), "B": (9.625, 0), "C": (4.8125, 2.492),
    ]

    /// Rows of a Database or Tests sheet: a header row naming `x`, `y`, `RSSI A`, `RSSI B`,
    /// `RSSI C` (and optionally `Point`), then one row per point. RSSI is stored as a positive
    /// magnitude (75 means −75 dBm); either sign is accepted and the result is negative. Rows
    /// with every cell empty are skipped. Throws on a missing column or a non-number cell.
    public static func points(_ sheet: [[SpreadsheetCell]]) throws(DatasetParseError) -> [Point] {
        let columns = try header(sheet, required: ["x", "y"] + nodes.map { "RSSI \($0)" })
        let pointColumn = sheet.first.flatMap { row in row.firstIndex { $0.text == "Point" } }
        var points: [Point] = []
        for (index, row) in sheet.enumerated().dropFirst() where row.contains(where: { $0 != .empty }) {
            let line = index + 1
            func value(_ name: String) throws(DatasetParseError) -> Double {
                let column = columns[name] ?? 0
                guard column < row.count, let number = row[column].number, number.isFinite else {
                    throw DatasetParseError(line: line, "column \(name) must hold a number")
                }
                return number
            }
            var rssi: [String: Double] = [:]
            for node in nodes { rssi[node] = -abs(try value("RSSI \(node)")) }
            let label = pointColumn.flatMap { $0 < row.count ? row[$0].number.map { Int($0) } : nil }
            points.append(Point(label: label, x: try value("x"), y: try value("y"), rssi: rssi))
        }
        return points
    }

    /// Rows of a Pathloss sheet: header `Distance`, `RSSI`; RSSI negative dBm.
    public static func pathLoss(_ sheet: [[SpreadsheetCell]]) throws(DatasetParseError) -> [PathLossSample] {
        let columns = try header(sheet, required: ["Distance", "RSSI"])
        var samples: [PathLossSample] = []
        for (index, row) in sheet.enumerated().dropFirst() where row.contains(where: { $0 != .empty }) {
            let d = columns["Distance"] ?? 0, r = columns["RSSI"] ?? 0
            guard d < row.count, r < row.count, let distance = row[d].number, let rssi = row[r].number else {
                throw DatasetParseError(line: index + 1, "Distance and RSSI must hold numbers")
            }
            samples.append(PathLossSample(distance: distance, rssi: -abs(rssi)))
        }
        return samples
    }

    /// A raw readings file: lines `Node <A|B|C>: <RSSI dBm>` → node → readings in file order.
    public static func rawReadings(_ bytes: [UInt8]) throws(DatasetParseError) -> [String: [Double]] {
        var readings: [String: [Double]] = [:]
        let text = String(decoding: bytes, as: UTF8.self)
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            let parts = trimmed.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].hasPrefix("Node "),
                  let rssi = Double(parts[1].trimmingCharacters(in: .whitespaces)), rssi.isFinite
            else {
                throw DatasetParseError(line: index + 1, "expected \"Node <name>: <RSSI>\", got \"\(trimmed)\"")
            }
            readings[String(parts[0].dropFirst(5)), default: []].append(rssi)
        }
        return readings
    }

    private static func header(_ sheet: [[SpreadsheetCell]], required: [String]) throws(DatasetParseError) -> [String: Int] {
        guard let first = sheet.first else { throw DatasetParseError(line: 0, "the sheet is empty") }
        var columns: [String: Int] = [:]
        for (index, cell) in first.enumerated() {
            if let name = cell.text { columns[name] = index }
        }
        let missing = required.filter { columns[$0] == nil }
        guard missing.isEmpty else {
            throw DatasetParseError(line: 1, "the header lacks \(missing.joined(separator: ", ")); it has \(columns.keys.sorted().joined(separator: ", "))")
        }
        return columns
    }
}
