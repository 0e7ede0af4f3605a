import DaemonSupport
import Foundation
import Testing

/// The version scannerd reports to switchd (docs/fleet-health.md) is the one the Debian packages
/// are built as: debian/changelog's first entry.
@Suite("Version")
struct VersionTests {
    @Test func theReportedVersionIsTheChangelogs() throws {
        let changelog = try String(contentsOfFile: repositoryFile("debian/changelog"), encoding: .utf8)
        let first = try #require(changelog.split(separator: "\n").first)
        let version = try #require(first.split(separator: "(").dropFirst().first?.split(separator: ")").first)
        #expect(FloorscanVersion.current == String(version), "bump FloorscanVersion.current with debian/changelog")
    }
}
