@testable import Evaluation
import Foundation
import Positioning
import Testing

@Suite("BLE dataset parsers")
struct BLEDatasetParserTests {
    @Test func receiversComeFromTheDonglesTable() throws {
        let text = #"Dongles:{"b827eb4521b4": [[7.00, 7.09, 1.22], 16711680, "sensor10"], "000000000101": [[7.18, 0.68, 2.30], 1, "sensor11"] }"# + "\nBeacons:{\"e78f\": [[], 1, \"beacon1\"] }"
        let receivers = try PositionAnnotatedBLE.receivers(Array(text.utf8))
        #expect(receivers.map(\.alias) == ["sensor10", "sensor11"])
        #expect(receivers[0].mac == "b827eb4521b4" && receivers[0].z == 1.22 && receivers[1].y == 0.68)
    }

    @Test func aBrokenDonglesTableIsAClearError() {
        #expect(throws: DatasetParseError(line: 0, "no \"Dongles:\" table")) { try PositionAnnotatedBLE.receivers(Array("Beacons:{}".utf8)) }
        #expect(throws: DatasetParseError(line: 0, "receiver ab needs [[x, y, z], colour, alias]")) {
            try PositionAnnotatedBLE.receivers(Array(#"Dongles:{"ab": [[1, 2], 0, "s"]}"#.utf8))
        }
    }

    @Test func trackLinesDropImpossibleRSSI() throws {
        let text = """
        1581249601.40,B827EB4521B4,e78f135624ce,-87,18.031,8.465,1.816,0.062,-0.0,-0.998,0.998,0.017,0.062,0.017,-1.0,0.002\r
        1581249601.41,000000000101,e78f135624ce,42,18.0,8.4,1.8,0,0,0,0,0,0,0,0,0
        1581249601.42,000000000101,e78f135624ce,-77,18.1,8.5,1.9,0,0,0,0,0,0,0,0,0

        """
        let track = try PositionAnnotatedBLE.track(Array(text.utf8))
        #expect(track.dropped == 1)
        #expect(track.samples.count == 2)
        #expect(track.samples[0].receiverMAC == "b827eb4521b4" && track.samples[0].rssi == -87 && track.samples[0].x == 18.031)
    }

    @Test func aMalformedTrackLineNamesLineAndColumn() {
        let text = "1.0,aa,bb,-70,1,2,3\n2.0,aa,bb,-7x,1,2,3\n"
        #expect(throws: DatasetParseError(line: 2, "RSSI must be a number, got \"-7x\"")) { try PositionAnnotatedBLE.track(Array(text.utf8)) }
        #expect(throws: DatasetParseError(line: 1, "expected at least 7 fields, got 3")) { try PositionAnnotatedBLE.track(Array("1,2,3".utf8)) }
    }

    @Test func histogramsBecomeCountWeightedStatistics() throws {
        let text = """
        set,x,y,z,sensor,sensor_mac,rssi_dbm,count
        1,0.16,2.19,1.85,sensor10,b827eb4521b4,-76,1
        1,0.16,2.19,1.85,sensor10,b827eb4521b4,-74,3
        1,0.16,2.19,1.85,sensor10,b827eb4521b4,4,2
        2,1.00,2.00,1.90,sensor11,000000000101,-60,5
        """
        let points = try PositionAnnotatedBLE.surveyPoints(Array(text.utf8))
        #expect(points.count == 2)
        let first = try #require(points.first?.receivers["sensor10"])
        // Mean of −76, −74, −74, −74 = −74.5; population spread √0.75.
        #expect(first.mean == -74.5 && first.count == 4)
        #expect(abs(first.spread - 0.75.squareRoot()) < 1e-12)
        #expect(points[1].set == 2 && points[1].receivers["sensor11"]?.spread == 0)
        #expect(throws: DatasetParseError(line: 2, "set must be a whole number, got \"one\"")) {
            try PositionAnnotatedBLE.surveyPoints(Array("set,x,y,z,sensor,sensor_mac,rssi_dbm,count\none,0,0,0,s,m,-70,1".utf8))
        }
    }

    @Test func surveySamplesKeepTimeAndReceiver() throws {
        let text = "set,x,y,z,sensor,t_rel_s,rssi_dbm\n1,0.16,2.19,1.85,sensor10,0.457,-75\n1,0.16,2.19,1.85,sensor10,0.9,0\n"
        let parsed = try PositionAnnotatedBLE.surveySamples(Array(text.utf8))
        #expect(parsed.dropped == 1)
        #expect(parsed.samples == [PositionAnnotatedBLE.SurveySample(set: 1, x: 0.16, y: 2.19, z: 1.85, receiverAlias: "sensor10", time: 0.457, rssi: -75)])
    }

    @Test func spachosSheetsTakeMagnitudesAsNegativeDBm() throws {
        let sheet: [[SpreadsheetCell]] = [
            [.text("Point"), .text("x"), .text("y"), .text("RSSI A"), .text("RSSI B"), .text("RSSI C ")],
            [.number(1), .number(1.804), .number(0), .number(63), .number(64), .number(-57)],
            [.empty, .empty],
        ]
        let points = try SpachosRSSI.points(sheet)
        #expect(points == [SpachosRSSI.Point(label: 1, x: 1.804, y: 0, rssi: ["A": -63, "B": -64, "C": -57])])
        #expect(throws: DatasetParseError(line: 1, "the header lacks RSSI C; it has RSSI A, RSSI B, x, y")) {
            try SpachosRSSI.points([[.text("x"), .text("y"), .text("RSSI A"), .text("RSSI B")]])
        }
        #expect(throws: DatasetParseError(line: 2, "column y must hold a number")) {
            try SpachosRSSI.points([sheet[0], [.number(1), .number(2), .text("n/a"), .number(1), .number(1), .number(1)]])
        }
    }

    @Test func spachosPathLossAndRawReadings() throws {
        let samples = try SpachosRSSI.pathLoss([[.text("Distance"), .text("RSSI")], [.number(0.5), .number(-42)]])
        #expect(samples == [PathLossSample(distance: 0.5, rssi: -42)])
        let raw = try SpachosRSSI.rawReadings(Array("Node B: -78\r\nNode A: -76\nNode B: -70\n".utf8))
        #expect(raw == ["A": [-76], "B": [-78, -70]])
        #expect(throws: DatasetParseError(line: 2, "expected \"Node <name>: <RSSI>\", got \"Node C -67\"")) {
            try SpachosRSSI.rawReadings(Array("Node A: -1\nNode C -67\n".utf8))
        }
    }
}
