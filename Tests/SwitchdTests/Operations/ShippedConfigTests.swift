import DaemonSupport
import Foundation
import Testing
@testable import switchd
@testable import SwitchdStore

/// packaging/switchd.toml, installed as /etc/floorscan/switchd.toml by the Debian package.
@Suite("switchd's shipped configuration file")
struct ShippedConfigTests {
    static let path = repositoryFile("packaging/switchd.toml")

    @Test("lists every option with its default and nothing else; switchd accepts it, every setting on or not")
    func complete() throws {
        let problems = try ConfigTemplate.problems(ofFileAt: Self.path, for: ServeCommand.self)
        #expect(problems == [], "\(problems)")
    }

    @Test("puts the state in the folder the unit's StateDirectory= makes")
    func stateDirectory() throws {
        let words = try SwitchdCommand.arguments(["--config", Self.path], configuring: ServeCommand.self).arguments
        let serve = try #require(try SwitchdCommand.parseAsRoot(words) as? ServeCommand)
        #expect(serve.stateDir == "/var/lib/floorscan/switchd")
    }
}
