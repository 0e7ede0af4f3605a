/// A dataset file that does not have the documented format: which line (1-based; 0 for the
/// file as a whole) and why.
public struct DatasetParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: String

    public init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { line > 0 ? "line \(line): \(reason)" : reason }
}

/// Splits bytes into lines (LF or CRLF), dropping a final empty line, and hands each line's
/// comma-separated fields (as strings) with its 1-based number to `body`.
func forEachCSVLine(_ bytes: [UInt8], _ body: (Int, [Substring]) throws(DatasetParseError) -> Void) throws(DatasetParseError) {
    let text = String(decoding: bytes, as: UTF8.self)
    var number = 0
    // "\r\n" is one Character in Swift, so both terminators are named.
    for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
        number += 1
        if line.isEmpty { continue }
        try body(number, line.split(separator: ",", omittingEmptySubsequences: false))
    }
}

/// A field as a finite number, or a parse error naming the column.
func number(_ field: Substring, _ column: String, line: Int) throws(DatasetParseError) -> Double {
    guard let value = Double(field), value.isFinite else {
        throw DatasetParseError(line: line, "\(column) must be a number, got \"\(field)\"")
    }
    return value
}
