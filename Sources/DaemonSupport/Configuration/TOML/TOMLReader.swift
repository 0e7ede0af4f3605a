/// Reads a daemon's configuration file: the part of TOML 1.0 that holds command-line options, that
/// is, top-level `key = value` lines whose values are strings (all four kinds), integers, floats,
/// booleans and arrays of those, with comments anywhere TOML allows them. It needs nothing but the
/// standard library (so the Pi's scannerd does not link Foundation for it).
///
/// Valid TOML that no option takes (a `[table]`, an inline table, a dotted key, a date or time) is
/// reported as `.unsupported`, naming the key and its line, so the operator learns which setting is
/// wrong rather than that the file is; everything else that is not TOML is `.syntax` with the line
/// and column where reading stopped.
struct TOMLReader {
    private var cursor: TOMLCursor

    init(text: String) {
        cursor = TOMLCursor(text: text)
    }

    /// Every setting, in file order, each with the line of its key.
    ///
    /// - Throws: ``TOMLReadError`` for the first line that is not such a setting, or for a key set twice.
    mutating func settings() throws(TOMLReadError) -> [ConfigSetting] {
        var settings: [ConfigSetting] = []
        var seen: Set<String> = []
        while true {
            try cursor.skipBlankLines()
            if cursor.atEnd { return settings }
            let line = cursor.line, column = cursor.column
            if cursor.peek() == UInt8(ascii: "[") {
                throw .unsupported(key: tableName(), line: line, what: "a table")
            }
            let key = try self.key()
            cursor.skipSpaces()
            if cursor.peek() == UInt8(ascii: ".") {
                throw .unsupported(key: key, line: line, what: "a table (a dotted key)")
            }
            guard cursor.take(UInt8(ascii: "=")) else { throw cursor.failure("expected '=' after '\(key)'") }
            cursor.skipSpaces()
            let value = try cursor.value(of: key, line: line)
            try cursor.finishLine(after: "the value of '\(key)'")
            guard seen.insert(key).inserted else {
                throw .syntax(line: line, column: column, reason: "'\(key)' is set a second time")
            }
            settings.append(ConfigSetting(key: key, value: value, line: line))
        }
    }

    /// A bare key (letters, digits, `-`, `_`) or a quoted one on one line.
    private mutating func key() throws(TOMLReadError) -> String {
        if cursor.peek() == UInt8(ascii: "\"") || cursor.peek() == UInt8(ascii: "'") {
            guard !cursor.looksAt("\"\"\""), !cursor.looksAt("'''") else {
                throw cursor.failure("a key cannot be a multi-line string")
            }
            return try cursor.string()
        }
        let start = cursor.offset
        while let byte = cursor.peek(), byte.isBareKeyByte { cursor.advance() }
        guard cursor.offset > start else {
            throw cursor.failure("expected a setting (name = value), a comment (#) or an empty line")
        }
        return cursor.text(from: start)
    }

    /// The name in a `[table]` or `[[array of tables]]` header, for the error that refuses it.
    private mutating func tableName() -> String {
        while cursor.take(UInt8(ascii: "[")) {}
        cursor.skipSpaces()
        let start = cursor.offset
        while let byte = cursor.peek(), byte != UInt8(ascii: "]"), byte != UInt8(ascii: "\n") { cursor.advance() }
        var name = cursor.text(from: start)
        while name.last == " " || name.last == "\t" { name.removeLast() }
        return name
    }
}

extension UInt8 {
    fileprivate var isBareKeyByte: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
    }
}
