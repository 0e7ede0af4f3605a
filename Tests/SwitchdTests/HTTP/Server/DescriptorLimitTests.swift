import Foundation
import Testing
@testable import switchd

/// The open-file limit fits a thousand scanners (two connections each) by default: switchd
/// raises its soft limit towards the hard one, and the shipped unit's `LimitNOFILE=` leaves room
/// for the default `--max-connections`.
@Suite("Connections: the open-file limit fits the default connection limit")
struct DescriptorLimitTests {
    static let unitPath = repositoryFile("systemd/switchd.service")

    @Test func aSoftLimitBelowWhatTheConnectionsNeedIsRaisedAsFarAsTheHardLimitAllows() {
        let needed = DescriptorLimit.needed(forConnections: 2_000)
        #expect(DescriptorLimit(soft: 1_024, hard: 524_288).raisedSoftLimit(toFit: 2_000) == needed)
        #expect(DescriptorLimit(soft: 1_024, hard: 1_500).raisedSoftLimit(toFit: 2_000) == 1_500)
        #expect(DescriptorLimit(soft: 1_024, hard: nil).raisedSoftLimit(toFit: 2_000) == needed)
    }

    @Test func aSoftLimitThatIsEnoughOrCannotGrowIsLeftAlone() {
        #expect(DescriptorLimit(soft: 65_536, hard: 65_536).raisedSoftLimit(toFit: 2_000) == nil)
        #expect(DescriptorLimit(soft: 1_024, hard: 1_024).raisedSoftLimit(toFit: 2_000) == nil)
        #expect(DescriptorLimit(soft: nil, hard: nil).raisedSoftLimit(toFit: 2_000) == nil)
    }

    @Test func theDefaultConnectionLimitHoldsAThousandScannersAndTheUnitsLimitHoldsIt() throws {
        // A scanner holds two connections: its switch long-poll and its upload.
        #expect(Settings.defaultMaxConnections >= 2 * 1_000 + DescriptorLimit.overflow)
        let unit = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
        let values = unit.split(separator: "\n").filter { $0.hasPrefix("LimitNOFILE=") }.map { $0.dropFirst("LimitNOFILE=".count) }
        let limit = try #require(values.count == 1 ? Int(values[0]) : nil, "one numeric LimitNOFILE= in \(Self.unitPath)")
        #expect(limit >= DescriptorLimit.needed(forConnections: Settings.defaultMaxConnections))
    }
}
