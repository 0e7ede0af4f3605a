import Testing

@testable import DaemonSupport

@Suite("Configuration file: the TOML reader")
struct TOMLReaderTests {
    private func settings(_ text: String) throws(TOMLReadError) -> [ConfigSetting] {
        var reader = TOMLReader(text: text)
        return try reader.settings()
    }

    private func values(_ text: String) throws -> [String: ConfigValue] {
        Dictionary(uniqueKeysWithValues: try settings(text).map { ($0.key, $0.value) })
    }

    @Test("the four kinds of string, with escapes, line-ending backslashes and quotes inside")
    func strings() throws {
        let read = try values(#"""
            basic = "tab\there \"quoted\" \\ \u00e9 \U0001F600"
            literal = 'C:\no\escapes'
            "quoted key" = "x"
            'literal key' = ''
            lines = """
            one
            two \
                three"""
            raw = '''
            a\b ''quoted'' '''
            """#)
        #expect(read["basic"] == .string("tab\there \"quoted\" \\ é 😀"))
        #expect(read["literal"] == .string(#"C:\no\escapes"#))
        #expect(read["quoted key"] == .string("x"))
        #expect(read["literal key"] == .string(""))
        #expect(read["lines"] == .string("one\ntwo three"))
        #expect(read["raw"] == .string("a\\b ''quoted'' "))
    }

    @Test("integers in four bases with underscores, floats with exponents, inf and nan, booleans")
    func numbersAndBooleans() throws {
        let read = try values("""
            a = +1_000
            b = -17
            c = 0
            d = 0xdead_BEEF
            e = 0o755
            f = 0b1010
            g = 3.25
            h = -1e-3
            i = 6.02E+23
            j = 1_0.5_0
            k = -inf
            l = true
            m = false
            n = nan
            """)
        #expect(read["a"] == .integer(1000))
        #expect(read["b"] == .integer(-17))
        #expect(read["c"] == .integer(0))
        #expect(read["d"] == .integer(0xDEAD_BEEF))
        #expect(read["e"] == .integer(0o755))
        #expect(read["f"] == .integer(10))
        #expect(read["g"] == .float(3.25))
        #expect(read["h"] == .float(-0.001))
        #expect(read["i"] == .float(6.02e23))
        #expect(read["j"] == .float(10.5))
        #expect(read["k"] == .float(-.infinity))
        #expect(read["l"] == .boolean(true))
        #expect(read["m"] == .boolean(false))
        guard case .float(let notANumber) = read["n"] else {
            Issue.record("nan was read as \(String(describing: read["n"]))")
            return
        }
        #expect(notANumber.isNaN)
    }

    @Test("a list over several lines with comments, a trailing comma and nested lists")
    func lists() throws {
        let read = try settings("""
            tag = [
              "a",  # the first
              'b',
            ]
            empty = []
            nested = [[1, 2], [true]] # trailing comment
            after = 1
            """)
        #expect(read == [
            ConfigSetting(key: "tag", value: .array([.string("a"), .string("b")]), line: 1),
            ConfigSetting(key: "empty", value: .array([]), line: 5),
            ConfigSetting(key: "nested", value: .array([.array([.integer(1), .integer(2)]), .array([.boolean(true)])]), line: 6),
            ConfigSetting(key: "after", value: .integer(1), line: 7),
        ])
    }

    @Test("CRLF line ends and a file without a final line end")
    func lineEnds() throws {
        #expect(try settings("a = 1\r\n\r\nb = \"x\"") == [
            ConfigSetting(key: "a", value: .integer(1), line: 1),
            ConfigSetting(key: "b", value: .string("x"), line: 3),
        ])
    }

    @Test("what is not TOML stops the reader at its line and column, saying why", arguments: [
        ("port = 1\nhost = \n", 2, 8, "'host =' has no value"),
        ("name = \"open\nnext = 1\n", 1, 13, "a line end inside a one-line string"),
        ("name = \"\"\"never closed\n", 1, 8, "a string that never ends"),
        ("name = \"bad \\q escape\"\n", 1, 13, "an unknown escape"),
        ("\n\nhost = localhost\n", 3, 8, "'localhost' is not a value"),
        ("port = 08080\n", 1, 8, "'08080' is not a value"),
        ("port = 1__0\n", 1, 8, "'1__0' is not a value"),
        ("port = 1.\n", 1, 8, "'1.' is not a value"),
        ("port = 99999999999999999999\n", 1, 8, "out of range"),
        ("port = 1 2\n", 1, 10, "unexpected text after the value of 'port'"),
        ("tag = [1 2]\n", 1, 10, "expected ',' or ']'"),
        ("tag = [1,\n", 1, 7, "a list that never ends"),
        ("= 1\n", 1, 1, "expected a setting"),
        ("port 1\n", 1, 6, "expected '=' after 'port'"),
        ("port = 1\nport = 2\n", 2, 1, "'port' is set a second time"),
    ])
    func syntaxErrors(text: String, line: Int, column: Int, reason: String) {
        do {
            let read = try settings(text)
            Issue.record("read \(read) from invalid TOML")
        } catch {
            guard case .syntax(let errorLine, let errorColumn, let errorReason) = error else {
                Issue.record("expected a syntax error, got \(error)")
                return
            }
            #expect(errorLine == line)
            #expect(errorColumn == column)
            #expect(errorReason.contains(reason), "\(errorReason)")
        }
    }

    @Test("tables, dotted keys, dates and times are refused naming the key and its line", arguments: [
        ("a = 1\n[server]\nport = 1\n", "server", 2, "a table"),
        ("[[peers]]\n", "peers", 1, "a table"),
        ("a = 1\nserver = { port = 1 }\n", "server", 2, "a table"),
        ("server.port = 1\n", "server", 1, "a table (a dotted key)"),
        ("port = 1\nwhen = 2026-11-22\n", "when", 2, "a date or time"),
        ("at = 07:30:00\n", "at", 1, "a date or time"),
        ("days = [\n  1979-05-27T07:32:00Z,\n]\n", "days", 1, "a date or time"),
    ])
    func unsupported(text: String, key: String, line: Int, what: String) {
        #expect(throws: TOMLReadError.unsupported(key: key, line: line, what: what)) { try settings(text) }
    }

    @Test("every shipped configuration file reads, each setting on its own line")
    func shippedFiles() throws {
        for name in ["scannerd.toml", "switchd.toml"] {
            let file = try ConfigFile.load(path: "\(packagingFolder)/\(name)")
            #expect(!file.settings.isEmpty, "\(name)")
            #expect(file.settings.map(\.line) == file.settings.map(\.line).sorted(), "\(name)")
        }
    }
}

/// The repository's packaging folder (the shipped configuration files), found from this file's path.
private var packagingFolder: String {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)   // Tests/DaemonSupportTests/Configuration/TOMLReaderTests.swift
    return parts.joined(separator: "/") + "/packaging"
}
