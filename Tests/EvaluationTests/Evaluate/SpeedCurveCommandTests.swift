import Testing
@testable import floorscan_evaluate

/// `floorscan-evaluate speed-curve` on small simulated maps: one row per size, in the order asked,
/// with the map's access points and its index. Timings are printed, never asserted.
@Suite struct SpeedCurveCommandTests {
    @Test func measuresEveryMapSizeAskedFor() throws {
        let command = try SpeedCurveCommand.parse(["--samples", "300", "900", "--queries", "20"])
        let points = command.samples.map(command.measure)
        #expect(points.map(\.samples) == [300, 900])
        // An access point per 200 m² of three floors of 300 / 3 × 4 m² (and 900 / 3 × 4 m²).
        #expect(points.map(\.accessPoints) == [6, 18])
        #expect(points[1].indexBytes > points[0].indexBytes)
        let table = SpeedCurveTable(points: points).markdown.split(separator: "\n")
        #expect(table.count == 4)
        #expect(table[3].hasPrefix("| 900 | 18 | "))
    }
}
