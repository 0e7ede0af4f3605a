extension TOMLCursor {
    /// The value at `offset` (a string, integer, float, boolean or array of those) for the setting
    /// `key`, which the errors name.
    ///
    /// - Throws: `.unsupported` for an inline table or a date or time; `.syntax` for anything that is
    ///   not a TOML value.
    mutating func value(of key: String, line keyLine: Int) throws(TOMLReadError) -> ConfigValue {
        switch peek() {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .string(try string())
        case UInt8(ascii: "["):
            return try array(of: key, line: keyLine)
        case UInt8(ascii: "{"):
            throw .unsupported(key: key, line: keyLine, what: "a table")
        case nil, UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"):
            throw failure("'\(key) =' has no value")
        default:
            return try bareValue(of: key, line: keyLine)
        }
    }

    /// `[a, b, …]`, over several lines if need be, with comments and a trailing comma allowed.
    private mutating func array(of key: String, line keyLine: Int) throws(TOMLReadError) -> ConfigValue {
        let opening = (line, column)
        advance()
        var elements: [ConfigValue] = []
        while true {
            try skipBlankLines()
            if take(UInt8(ascii: "]")) { return .array(elements) }
            if atEnd { throw .syntax(line: opening.0, column: opening.1, reason: "a list that never ends (no ']')") }
            elements.append(try value(of: key, line: keyLine))
            try skipBlankLines()
            if take(UInt8(ascii: "]")) { return .array(elements) }
            guard take(UInt8(ascii: ",")) else { throw failure("expected ',' or ']' in the list") }
        }
    }

    /// A value without quotes: `true`, `false`, an integer (decimal, `0x`, `0o`, `0b`) or a float
    /// (with `.`, an exponent, `inf` or `nan`). Underscores may stand between digits.
    private mutating func bareValue(of key: String, line keyLine: Int) throws(TOMLReadError) -> ConfigValue {
        let start = offset, startColumn = column
        while let byte = peek(), byte.isBareValueByte { advance() }
        let word = text(from: start)
        let wrong = TOMLReadError.syntax(
            line: line, column: startColumn,
            reason: "'\(word)' is not a value (a string needs quotes; numbers, true and false do not)"
        )
        switch word {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan", "-nan": return .float(.nan)
        default: break
        }
        if word.isDateOrTimeStart { throw .unsupported(key: key, line: keyLine, what: "a date or time") }
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where word.hasPrefix(prefix) {
            let digits = word.dropFirst(2)
            guard digits.hasUnderscoresOnlyBetweenDigits(radix: radix),
                let number = Int(digits.filter { $0 != "_" }, radix: radix)
            else { throw wrong }
            return .integer(number)
        }
        let unsigned = word.first == "+" || word.first == "-" ? word.dropFirst() : Substring(word)
        let isFloat = unsigned.contains { $0 == "." || $0 == "e" || $0 == "E" }
        guard unsigned.isDecimalNumber(isFloat: isFloat) else { throw wrong }
        let plain = word.filter { $0 != "_" }
        if isFloat {
            guard let number = Double(plain) else { throw wrong }
            return .float(number)
        }
        guard let number = Int(plain) else {
            throw .syntax(line: line, column: startColumn, reason: "\(word) is out of range for a 64-bit integer")
        }
        return .integer(number)
    }
}

extension UInt8 {
    /// The bytes a number, boolean, date or time is written with (`+-._:` and letters and digits).
    fileprivate var isBareValueByte: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || [UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":")].contains(self)
    }
}

extension StringProtocol {
    /// `1979-05-27…` or `07:32…`: TOML's dates, times and date-times start so.
    fileprivate var isDateOrTimeStart: Bool {
        let characters = Array(prefix(5))
        let digit = { (index: Int) in index < characters.count && characters[index].isASCII && characters[index].isNumber }
        return (digit(0) && digit(1) && digit(2) && digit(3) && characters.count > 4 && characters[4] == "-")
            || (digit(0) && digit(1) && characters.count > 2 && characters[2] == ":")
    }

    /// Digits of `radix`, with each `_` between two digits.
    fileprivate func hasUnderscoresOnlyBetweenDigits(radix: Int) -> Bool {
        let isDigit = { (character: Character) in character.hexDigitValue.map { $0 < radix } ?? false }
        return isUnderscoreSeparated(isDigit)
    }

    private func isUnderscoreSeparated(_ isDigit: (Character) -> Bool) -> Bool {
        guard let first, let last, isDigit(first), isDigit(last) else { return false }
        var previous: Character = first
        for character in dropFirst() {
            guard isDigit(character) || (character == "_" && previous != "_") else { return false }
            previous = character
        }
        return true
    }

    /// TOML's unsigned decimal: an integer part without leading zeros, then for a float a `.` and
    /// digits and/or an exponent (`e`, optional sign, digits).
    fileprivate func isDecimalNumber(isFloat: Bool) -> Bool {
        let isDigit = { (character: Character) in character.isASCII && character.isNumber }
        let mantissaEnd = firstIndex { $0 == "e" || $0 == "E" } ?? endIndex
        let mantissa = self[startIndex..<mantissaEnd]
        let integerEnd = mantissa.firstIndex(of: ".") ?? mantissa.endIndex
        let integer = mantissa[startIndex..<integerEnd]
        guard integer.isUnderscoreSeparated(isDigit), integer == "0" || integer.first != "0" else { return false }
        if !isFloat { return integerEnd == endIndex }
        if integerEnd != mantissa.endIndex {
            guard mantissa[mantissa.index(after: integerEnd)...].isUnderscoreSeparated(isDigit) else { return false }
        }
        guard mantissaEnd != endIndex else { return integerEnd != mantissa.endIndex }
        var exponent = self[index(after: mantissaEnd)...]
        if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
        return exponent.isUnderscoreSeparated(isDigit)
    }
}
