import ArgumentParser
import Testing

@testable import DaemonSupport

@Suite("Configuration file: reading TOML")
struct ConfigFileTests {
    @Test("top-level keys with their values and lines, in file order")
    func readsSettings() throws {
        let file = try ConfigFile(path: "x.toml", text: """
            # a comment
            port = 9000

            host = "0.0.0.0"
              speed = 2.5
            follow = false
            tag = ["a", "b"]
            """)
        #expect(file.settings == [
            ConfigSetting(key: "port", value: .integer(9000), line: 2),
            ConfigSetting(key: "host", value: .string("0.0.0.0"), line: 4),
            ConfigSetting(key: "speed", value: .float(2.5), line: 5),
            ConfigSetting(key: "follow", value: .boolean(false), line: 6),
            ConfigSetting(key: "tag", value: .array([.string("a"), .string("b")]), line: 7),
        ])
    }

    @Test("a missing file is an error naming the path and the reason")
    func missingFile() throws {
        let path = "/nonexistent-\(UInt64.random(in: 0...UInt64.max))/switchd.toml"
        #expect(throws: ConfigFileError.unreadable(path: path, reason: "No such file or directory")) {
            try ConfigFile.load(path: path)
        }
        #expect(ConfigFileError.unreadable(path: path, reason: "No such file or directory").description.contains(path))
    }

    @Test("text that is not TOML is an error with its line")
    func syntaxError() throws {
        do {
            _ = try ConfigFile(path: "bad.toml", text: "port = 1\nhost = \n")
            Issue.record("parsed invalid TOML")
        } catch {
            guard case .syntax(let path, let line, _, _) = error else {
                Issue.record("expected a syntax error, got \(error)")
                return
            }
            #expect(path == "bad.toml")
            #expect(line == 2)
        }
    }

    @Test("a table or a date is refused, naming the key")
    func tablesAndDates() throws {
        #expect(throws: ConfigFileError.self) { try ConfigFile(path: "t.toml", text: "[server]\nport = 1\n") }
        do {
            _ = try ConfigFile(path: "d.toml", text: "port = 1\nwhen = 2026-11-22\n")
            Issue.record("a date was accepted")
        } catch {
            guard case .wrongShape(_, let key, let line, _) = error else {
                Issue.record("expected wrongShape, got \(error)")
                return
            }
            #expect(key == "when")
            #expect(line == 2)
        }
    }

    @Test("a table names itself and its line; a setting after it is not read as a top-level one")
    func tableIsNamed() throws {
        #expect(throws: ConfigFileError.wrongShape(
            path: "t.toml", key: "server", line: 2,
            expected: "a string, number, true/false or a list of those, not a table"
        )) {
            try ConfigFile(path: "t.toml", text: "\"port\" = 1\n[server]\nhost = 2\n")
        }
    }
}
