import ArgumentParser
import Testing

@testable import DaemonSupport

@Suite("Configuration file: where the settings go among the arguments")
struct ConfigInvocationTests {
    @Test("after the subcommand's name, or first when the default subcommand runs")
    func subcommandPosition() throws {
        let fixture = try ConfigFixture("port = 9000\n")
        let named = try SampleRoot.arguments(["sample-daemon", "--config", fixture.path], configuring: SampleDaemon.self)
        #expect(named.arguments == ["sample-daemon", "--port=9000", "--config", fixture.path])
        let defaulted = try SampleRoot.arguments(["--config", fixture.path], configuring: SampleDaemon.self)
        #expect(defaulted.arguments == ["--port=9000", "--config", fixture.path])
        let parsed = try #require(try SampleRoot.parseAsRoot(defaulted.arguments) as? SampleDaemon)
        #expect(parsed.port == 9000)
    }

    @Test("another subcommand's arguments are left alone")
    func otherSubcommand() throws {
        let other = try SampleRoot.arguments(["other", "--port", "2"], configuring: SampleDaemon.self)
        #expect(other.arguments == ["other", "--port", "2"])
        #expect(other.file == nil)
    }

    @Test("without --config nothing is read")
    func noConfig() throws {
        let plain = try SampleDaemon.arguments(["--port", "2"], configuring: SampleDaemon.self)
        #expect(plain.arguments == ["--port", "2"])
        #expect(plain.file == nil)
    }

    @Test("the options list leaves out help and config and knows each option's kind")
    func options() {
        let options = CommandOptions(SampleDaemon.self)
        #expect(options.option(forKey: "config") == nil)
        #expect(options.option(forKey: "help") == nil)
        #expect(options.option(forKey: "port")?.kind == .option)
        #expect(options.option(forKey: "port")?.defaultValue == "8080")
        #expect(options.option(forKey: "no-follow")?.kind == .flag)
        #expect(options.option(forKey: "tag")?.isRepeating == true)
    }

    @Test("every option --help shows is a key; one it shows that the list lacks is reported")
    func optionsAgreeWithHelp() {
        let options = CommandOptions(SampleDaemon.self)
        let help = SampleDaemon.helpMessage(includeHidden: true, columns: 1_000)
        #expect(CommandOptions.unreadable(by: options, help: help) == [])
        #expect(CommandOptions.unreadable(by: options, help: help + "\n  --brand-new <x>  Unlike --other-tool's --flag.") == ["brand-new"])
    }
}
