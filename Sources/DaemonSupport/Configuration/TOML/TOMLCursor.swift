/// A position in a TOML text's UTF-8 bytes that knows its line and column, with the lexical steps
/// every part of ``TOMLReader`` shares: whitespace, comments, line ends.
struct TOMLCursor {
    private let bytes: [UInt8]
    private(set) var offset = 0
    /// 1-based line of `offset`.
    private(set) var line = 1
    private var lineStart = 0

    init(text: String) {
        bytes = Array(text.utf8)
    }

    /// 1-based byte column of `offset` in its line.
    var column: Int { offset - lineStart + 1 }

    var atEnd: Bool { offset == bytes.count }

    /// The byte at `offset + ahead`, nil past the end.
    func peek(_ ahead: Int = 0) -> UInt8? {
        offset + ahead < bytes.count ? bytes[offset + ahead] : nil
    }

    /// True when the bytes at `offset` spell `text` (ASCII).
    func looksAt(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        return (0..<count).allSatisfy { bytes[offset + $0] == text.utf8Start[$0] }
    }

    /// Moves past one byte, counting lines (a `\n` starts the next one).
    mutating func advance(by count: Int = 1) {
        for _ in 0..<count where offset < bytes.count {
            if bytes[offset] == UInt8(ascii: "\n") {
                line += 1
                lineStart = offset + 1
            }
            offset += 1
        }
    }

    /// Moves past `byte` if it is next; false (and stays) otherwise.
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        advance()
        return true
    }

    /// The text of `bytes[start..<offset]`.
    func text(from start: Int) -> String {
        String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// An error at the current position.
    func failure(_ reason: String) -> TOMLReadError {
        .syntax(line: line, column: column, reason: reason)
    }

    /// Spaces and tabs.
    mutating func skipSpaces() {
        while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { advance() }
    }

    /// A `#` comment up to (not including) its line end.
    ///
    /// - Throws: `.syntax` for a control character in it (TOML allows tabs only).
    mutating func skipComment() throws(TOMLReadError) {
        guard peek() == UInt8(ascii: "#") else { return }
        while let byte = peek(), byte != UInt8(ascii: "\n"), !looksAt("\r\n") {
            if byte < 0x20 && byte != UInt8(ascii: "\t") || byte == 0x7F {
                throw failure("a control character in a comment")
            }
            advance()
        }
    }

    /// A line end, `\n` or `\r\n`; false (and stays) when neither is next.
    mutating func takeNewline() -> Bool {
        if take(UInt8(ascii: "\n")) { return true }
        guard looksAt("\r\n") else { return false }
        advance(by: 2)
        return true
    }

    /// Whitespace, comments and line ends, as between the items of an array or the lines of a file.
    mutating func skipBlankLines() throws(TOMLReadError) {
        while true {
            skipSpaces()
            try skipComment()
            if !takeNewline() { return }
        }
    }

    /// The rest of a line after its value: spaces, an optional comment, then a line end or the end.
    ///
    /// - Throws: `.syntax` naming what follows the value instead.
    mutating func finishLine(after what: String) throws(TOMLReadError) {
        skipSpaces()
        try skipComment()
        guard atEnd || takeNewline() else {
            throw failure("unexpected text after \(what) (one setting per line; a comment starts with #)")
        }
    }
}
