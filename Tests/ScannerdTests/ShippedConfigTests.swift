import DaemonSupport
import Foundation
import Testing
@testable import scannerd

/// packaging/scannerd.toml, installed as /etc/floorscan/scannerd.toml by the Debian package.
@Suite("scannerd's shipped configuration file")
struct ShippedConfigTests {
    static let path = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("packaging/scannerd.toml").path

    @Test("lists every option of scannerd run with its default and nothing else; run accepts it, every setting on or not")
    func complete() throws {
        #expect(try ConfigTemplate.problems(ofFileAt: Self.path, for: RunCommand.self) == [])
    }

    @Test("through scannerd's own arguments, puts the state in the folder the unit's StateDirectory= makes")
    func stateDirectory() throws {
        let words = try ScannerdCommand.arguments(["run", "--config", Self.path], configuring: RunCommand.self).arguments
        let run = try #require(try ScannerdCommand.parseAsRoot(words) as? RunCommand)
        #expect(run.stateDirectory == "/var/lib/floorscan/scannerd")
    }
}
