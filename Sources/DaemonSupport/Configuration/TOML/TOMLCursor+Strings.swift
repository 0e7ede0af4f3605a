extension TOMLCursor {
    /// A string at `offset`: basic (`"…"`), literal (`'…'`), or either multi-line form (`"""…"""`,
    /// `'''…'''`), with TOML's escapes in the basic forms.
    ///
    /// - Throws: `.syntax` for an unterminated string, a line end inside a one-line string, a control
    ///   character, or an unknown escape.
    mutating func string() throws(TOMLReadError) -> String {
        let basic = peek() == UInt8(ascii: "\"")
        let quote = basic ? UInt8(ascii: "\"") : UInt8(ascii: "'")
        let multiline = basic ? looksAt("\"\"\"") : looksAt("'''")
        let opening = (line, column)
        advance(by: multiline ? 3 : 1)
        if multiline { _ = takeNewline() }   // a line end right after the opening quotes is not part of it
        var bytes: [UInt8] = []
        while true {
            guard let byte = peek() else {
                throw .syntax(line: opening.0, column: opening.1, reason: "a string that never ends")
            }
            if byte == quote {
                if !multiline {
                    advance()
                    break
                }
                var quotes = 0
                while peek(quotes) == quote { quotes += 1 }
                if quotes >= 3 {
                    // Up to two quotes just before the closing three belong to the string.
                    guard quotes <= 5 else { throw failure("too many quotes at the end of a string") }
                    bytes += Array(repeating: quote, count: quotes - 3)
                    advance(by: quotes)
                    break
                }
                bytes += Array(repeating: quote, count: quotes)
                advance(by: quotes)
            } else if byte == UInt8(ascii: "\n") || looksAt("\r\n") {
                guard multiline else { throw failure("a line end inside a one-line string (use \"\"\" for several lines)") }
                _ = takeNewline()
                bytes.append(UInt8(ascii: "\n"))   // \r\n is read as \n
            } else if byte == UInt8(ascii: "\\") && basic {
                try escape(into: &bytes, multiline: multiline)
            } else if byte < 0x20 && byte != UInt8(ascii: "\t") || byte == 0x7F {
                throw failure("a control character inside a string (write it as an escape)")
            } else {
                bytes.append(byte)
                advance()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One backslash escape of a basic string, appended to `bytes` as UTF-8. In a multi-line string a
    /// backslash at a line's end drops that line end and the whitespace after it.
    private mutating func escape(into bytes: inout [UInt8], multiline: Bool) throws(TOMLReadError) {
        let start = (line, column)
        advance()
        let unknown = TOMLReadError.syntax(line: start.0, column: start.1, reason: "an unknown escape in a string")
        guard let letter = peek() else { throw unknown }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "t"): 0x09, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "f"): 0x0C,
            UInt8(ascii: "r"): 0x0D, UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C,
        ]
        if let byte = simple[letter] {
            bytes.append(byte)
            advance()
            return
        }
        if letter == UInt8(ascii: "u") || letter == UInt8(ascii: "U") {
            let digits = letter == UInt8(ascii: "u") ? 4 : 8
            advance()
            let hexStart = offset
            for _ in 0..<digits {
                guard let digit = peek(), digit.isHexDigit else {
                    throw .syntax(line: start.0, column: start.1, reason: "\\\(Character(Unicode.Scalar(letter))) needs \(digits) hex digits")
                }
                advance()
            }
            guard let value = UInt32(text(from: hexStart), radix: 16), let scalar = Unicode.Scalar(value) else {
                throw .syntax(line: start.0, column: start.1, reason: "\\\(Character(Unicode.Scalar(letter))) names no Unicode scalar")
            }
            bytes += Array(String(Character(scalar)).utf8)
            return
        }
        guard multiline else { throw unknown }
        // A line-ending backslash: only spaces or tabs may stand between it and the line end.
        skipSpaces()
        guard takeNewline() else { throw unknown }
        while true {
            skipSpaces()
            if !takeNewline() { return }
        }
    }
}

extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
