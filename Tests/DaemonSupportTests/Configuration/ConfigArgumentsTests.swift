import ArgumentParser
import Testing

@testable import DaemonSupport

@Suite("Configuration file: settings become options")
struct ConfigArgumentsTests {
    /// Parses `SampleDaemon` from `arguments` (which name a `--config` file) as the daemons do.
    private func parse(_ arguments: [String]) throws -> SampleDaemon {
        let (expanded, _) = try SampleDaemon.arguments(arguments, configuring: SampleDaemon.self)
        return try SampleDaemon.parse(expanded)
    }

    @Test("every kind of value in the file reaches its option")
    func fileValuesApplied() throws {
        let fixture = try ConfigFixture("""
            port = 9000
            host = "0.0.0.0"
            offset = -3
            speed = 2.5
            follow = false
            verbose = true
            tag = ["a", "b"]
            events = "-"
            """)
        let command = try parse(["--config", fixture.path])
        #expect(command.port == 9000)
        #expect(command.host == "0.0.0.0")
        #expect(command.offset == -3)
        #expect(command.speed == 2.5)
        #expect(command.follow == false)
        #expect(command.verbose == true)
        #expect(command.tag == ["a", "b"])
        #expect(command.events == "-")
        #expect(command.configFile.path == fixture.path)
    }

    @Test("without the file's keys the defaults stay")
    func defaultsStay() throws {
        let fixture = try ConfigFixture("port = 9000\n")
        let command = try parse(["--config=\(fixture.path)"])
        #expect(command.port == 9000)
        #expect(command.host == "127.0.0.1")
        #expect(command.follow == true)
    }

    @Test("an option on the command line beats the file, under any spelling")
    func flagBeatsFile() throws {
        let fixture = try ConfigFixture("port = 9000\nfollow = false\ntag = [\"file\"]\nhost = \"0.0.0.0\"\n")
        let command = try parse(["--port", "7000", "--config", fixture.path, "--follow", "--tag=cli"])
        #expect(command.port == 7000)
        #expect(command.follow == true)
        #expect(command.tag == ["cli"])
        #expect(command.host == "0.0.0.0")
        let negated = try parse(["--config", fixture.path, "--no-follow", "--port=1"])
        #expect(negated.follow == false)
        #expect(negated.port == 1)
    }

    @Test("an unknown key is an error naming it, the file, the line and the nearest option")
    func unknownKey() throws {
        let fixture = try ConfigFixture("host = \"::\"\nprot = 9000\n")
        #expect(throws: ConfigFileError.unknownSetting(path: fixture.path, key: "prot", line: 2, suggestion: "port")) {
            try parse(["--config", fixture.path])
        }
        let text = ConfigFileError.unknownSetting(path: fixture.path, key: "prot", line: 2, suggestion: "port").description
        #expect(text.contains("\(fixture.path) line 2"))
        #expect(text.contains("'prot'"))
    }

    @Test("a value of the wrong shape is refused before parsing")
    func wrongShapes() throws {
        for (text, key) in [("port = [1, 2]", "port"), ("follow = 1", "follow"), ("verbose = \"yes\"", "verbose")] {
            let fixture = try ConfigFixture(text + "\n")
            do {
                _ = try parse(["--config", fixture.path])
                Issue.record("\(text) was accepted")
            } catch let error as ConfigFileError {
                guard case .wrongShape(_, let blamed, let line, _) = error else {
                    Issue.record("expected wrongShape for \(text), got \(error)")
                    continue
                }
                #expect(blamed == key)
                #expect(line == 1)
            }
        }
    }

    @Test("config itself cannot be set in the file")
    func configInFile() throws {
        let fixture = try ConfigFixture("config = \"/etc/other.toml\"\n")
        #expect(throws: ConfigFileError.invalidSetting(path: fixture.path, key: "config", line: 1, reason: "cannot be set in a configuration file")) {
            try parse(["--config", fixture.path])
        }
    }

    @Test("a value the option cannot convert is blamed on its setting, with the file and the line")
    func badValueNamesSetting() throws {
        let fixture = try ConfigFixture("host = \"::\"\n\nport = \"eighty\"\n")
        let (expanded, file) = try SampleDaemon.arguments(["--config", fixture.path], configuring: SampleDaemon.self)
        let blamed = try #require(blame(expanded, file))
        guard case .invalidSetting(let path, let key, let line, let reason) = blamed else {
            Issue.record("expected invalidSetting, got \(blamed)")
            return
        }
        #expect(path == fixture.path)
        #expect(key == "port")
        #expect(line == 3)
        #expect(reason.contains("eighty"))
    }

    @Test("a value validate() refuses is blamed on its setting with validate()'s reason")
    func validateRunsOnFileValues() throws {
        let fixture = try ConfigFixture("port = 70000\n")
        let (expanded, file) = try SampleDaemon.arguments(["--config", fixture.path], configuring: SampleDaemon.self)
        let blamed = try #require(blame(expanded, file))
        #expect(blamed == .invalidSetting(
            path: fixture.path, key: "port", line: 1, reason: "--port must be between 0 and 65535, got 70000"
        ))
    }

    @Test("of two bad settings the one the command reports is blamed, whatever its message says")
    func twoBadSettings() throws {
        let fixture = try ConfigFixture("host = \"::\"\nspeed = \"fast\"\nport = \"eighty\"\n")
        let (expanded, file) = try SampleDaemon.arguments(["--config", fixture.path], configuring: SampleDaemon.self)
        let blamed = try #require(blame(expanded, file))
        guard case .invalidSetting(_, let key, let line, let reason) = blamed else {
            Issue.record("expected invalidSetting, got \(blamed)")
            return
        }
        #expect(reason == SampleDaemon.parseFailure(expanded))
        #expect((key, line) == (reason.contains("fast") ? ("speed", 2) : ("port", 3)))
    }

    @Test("a bad value given on the command line is not blamed on the file")
    func commandLineErrorsStayTheirs() throws {
        let fixture = try ConfigFixture("host = \"::\"\nport = 9000\n")
        let (expanded, file) = try SampleDaemon.arguments(["--config", fixture.path, "--port", "x"], configuring: SampleDaemon.self)
        #expect(throws: (any Error).self) { try SampleDaemon.parse(expanded) }
        #expect(blame(expanded, file) == nil)
    }

    @Test("--help documents --config")
    func helpDocumentsConfig() {
        let help = SampleDaemon.helpMessage(columns: 200)
        #expect(help.contains("--config <path>"))
        #expect(help.contains("without its dashes"))
    }

    /// The file's setting blamed for the error parsing `arguments` gives; nil when parsing succeeds.
    private func blame(_ arguments: [String], _ file: ConfigArguments?) -> ConfigFileError? {
        file?.blame(arguments, failure: SampleDaemon.parseFailure)
    }
}
