/// Walks a byte buffer line by line (LF or CRLF), counting lines from 1. A final line without
/// a terminator is still a line; a final empty line is not.
struct CSVLineCursor {
    private let bytes: [UInt8]
    private var position = 0
    private(set) var lineNumber = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func nextLine() -> ArraySlice<UInt8>? {
        guard position < bytes.count else { return nil }
        lineNumber += 1
        let start = position
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        position = end + 1
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return bytes[start..<end]
    }
}

/// Reads the comma-separated fields of one line in order, as numbers, throwing errors that name
/// the line, the column and its header name.
struct CSVFieldReader {
    private let line: ArraySlice<UInt8>
    private let lineNumber: Int
    private let names: [String]
    private var position: Int
    /// 0-based number of the next field.
    private var field = 0
    /// Bytes of the field read last.
    private var current: Range<Int>

    init(line: ArraySlice<UInt8>, lineNumber: Int, names: [String]) {
        self.line = line
        self.lineNumber = lineNumber
        self.names = names
        position = line.startIndex
        current = position..<position
    }

    func error(_ reason: String) -> UJIIndoorLocError {
        let column = max(field, 1)
        return UJIIndoorLocError(
            line: lineNumber, column: column, columnName: names.indices.contains(column - 1) ? names[column - 1] : nil,
            reason: reason)
    }

    private var text: String { String(decoding: line[current], as: UTF8.self) }

    private mutating func next() throws(UJIIndoorLocError) {
        guard position <= line.endIndex, field < names.count else {
            field += 1
            throw error("the line ends after \(field - 1) fields; the header has \(names.count)")
        }
        let start = position
        while position < line.endIndex, line[position] != UInt8(ascii: ",") { position += 1 }
        current = start..<position
        position += 1
        field += 1
    }

    /// The next field as a decimal integer (optionally negative).
    mutating func integer() throws(UJIIndoorLocError) -> Int {
        try next()
        var index = current.lowerBound
        let negative = index < current.upperBound && line[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < current.upperBound, current.upperBound - index <= 18 else {
            throw error("\"\(text)\" is not an integer")
        }
        var value = 0
        while index < current.upperBound {
            let digit = Int(line[index]) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(digit) else { throw error("\"\(text)\" is not an integer") }
            value = value * 10 + digit
            index += 1
        }
        return negative ? -value : value
    }

    /// The next field as a plain decimal, `-53`, `-53.50` or `.5` (no exponent, at most 18
    /// digits), read from the bytes without making a string: the fast path for RSSI columns,
    /// which are most of a file. Throws naming the field otherwise.
    mutating func decimal() throws(UJIIndoorLocError) -> Double {
        try next()
        var index = current.lowerBound
        let negative = index < current.upperBound && line[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits = 0, fractionDigits = 0, value = 0
        var seenPoint = false
        while index < current.upperBound {
            let byte = line[index]
            index += 1
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
                continue
            }
            let digit = Int(byte) - Int(UInt8(ascii: "0"))
            guard (0...9).contains(digit), digits < 18 else { throw error("\"\(text)\" is not a decimal number") }
            value = value * 10 + digit
            digits += 1
            if seenPoint { fractionDigits += 1 }
        }
        guard digits > 0 else { throw error("\"\(text)\" is not a decimal number") }
        var result = Double(value)
        if fractionDigits > 0 { result /= Self.powersOfTen[fractionDigits] }
        return negative ? -result : result
    }

    private static let powersOfTen: [Double] = (0...18).map { (0..<$0).reduce(1.0) { product, _ in product * 10 } }

    /// The next field as a decimal number.
    mutating func real() throws(UJIIndoorLocError) -> Double {
        try next()
        guard let value = Double(text), value.isFinite else { throw error("\"\(text)\" is not a number") }
        return value
    }

    /// Throws when the line holds more fields than were read.
    func expectEnd() throws(UJIIndoorLocError) {
        guard position > line.endIndex else {
            throw UJIIndoorLocError(
                line: lineNumber, reason: "the line has more than the header's \(names.count) fields")
        }
    }
}
