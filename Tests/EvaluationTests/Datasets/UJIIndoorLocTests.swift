@testable import Evaluation
import Testing

@Suite("UJIIndoorLoc CSV")
struct UJIIndoorLocTests {
    static let header = "WAP001,WAP002,WAP003,LONGITUDE,LATITUDE,FLOOR,BUILDINGID,SPACEID,RELATIVEPOSITION,USERID,PHONEID,TIMESTAMP"

    func parse(_ lines: [String], terminator: String = "\n") throws(UJIIndoorLocError) -> [UJIIndoorLocSample] {
        try UJIIndoorLoc.parse(Array(lines.joined(separator: terminator).utf8))
    }

    func failure(_ lines: [String]) -> UJIIndoorLocError? {
        do {
            _ = try parse(lines)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsSamplesLeavingOutUndetectedAccessPoints() throws {
        let samples = try parse([Self.header, "-70,100,0,-7541.2643,4864920.7782,2,1,106,2,2,23,1371713733", ""], terminator: "\r\n")
        #expect(samples.count == 1)
        let sample = try #require(samples.first)
        #expect(sample.readings == [1: -70, 3: 0])
        #expect(sample.longitude == -7541.2643)
        #expect(sample.latitude == 4864920.7782)
        #expect(sample.floor == 2)
        #expect(sample.buildingID == 1)
        #expect(sample.spaceID == 106)
        #expect(sample.relativePosition == 2)
        #expect(sample.userID == 2)
        #expect(sample.phoneID == 23)
        #expect(sample.timestamp == 1_371_713_733)
        #expect(sample.fingerprint.building == "1")
        #expect(sample.fingerprint.floorID == 2)
    }

    @Test func aLastLineWithoutTerminatorIsRead() throws {
        #expect(try parse([Self.header, "100,100,-80,1,2,0,0,0,0,0,0,5"]).count == 1)
    }

    @Test func aWrongHeaderNamesTheColumn() throws {
        let error = try #require(failure(["WAP001,WAP003,WAP002,LONGITUDE,LATITUDE,FLOOR,BUILDINGID,SPACEID,RELATIVEPOSITION,USERID,PHONEID,TIMESTAMP"]))
        #expect(error.line == 1)
        #expect(error.column == 2)
        #expect(error.description.contains("WAP002"))
    }

    @Test func aFieldThatIsNotANumberNamesLineAndColumn() throws {
        let error = try #require(failure([Self.header, "-70,100,0,1,2,0,0,0,0,0,0,5", "-70,1x0,0,1,2,0,0,0,0,0,0,5"]))
        #expect(error.line == 3)
        #expect(error.column == 2)
        #expect(error.columnName == "WAP002")
        #expect(error.description.contains("\"1x0\""))
    }

    @Test func aBadCoordinateIsNamed() throws {
        let error = try #require(failure([Self.header, "-70,100,0,east,2,0,0,0,0,0,0,5"]))
        #expect(error.column == 4)
        #expect(error.columnName == "LONGITUDE")
    }

    @Test func aShortLineSaysSo() throws {
        let error = try #require(failure([Self.header, "-70,100,0,1,2,0,0,0"]))
        #expect(error.line == 2)
        #expect(error.column == 9)
        #expect(error.description.contains("ends after 8 fields"))
    }

    @Test func aLongLineSaysSo() throws {
        let error = try #require(failure([Self.header, "-70,100,0,1,2,0,0,0,0,0,0,5,9"]))
        #expect(error.line == 2)
        #expect(error.description.contains("more than"))
    }

    @Test func aPositiveRSSIOtherThanNotDetectedIsRejected() throws {
        let error = try #require(failure([Self.header, "-70,50,0,1,2,0,0,0,0,0,0,5"]))
        #expect(error.column == 2)
        #expect(error.description.contains("RSSI 50"))
    }

    @Test func decimalRSSIIsReadAsWritten() throws {
        // Published BLE sets average scans: "-53.50"; 100 written as a decimal is still "not heard".
        let samples = try parse([Self.header, "-53.50,100.00,-.5,1.25,-2.5,3,5,0,0,0,0,0"])
        #expect(samples.first?.readings == [1: -53.5, 3: -0.5])
        #expect(samples.first?.floor == 3)
        #expect(samples.first?.buildingID == 5)
    }

    @Test func aRowHearingNothingIsKeptWithoutReadings() throws {
        let samples = try parse([Self.header, "100,100,100,12.5,40.25,-1,7,0,0,0,0,0"])
        let sample = try #require(samples.first)
        #expect(sample.readings.isEmpty)
        #expect(sample.longitude == 12.5)
        #expect(sample.floor == -1)
        #expect(sample.buildingID == 7)
    }

    @Test(arguments: ["-5.3.2", "-", ".", "--5", "-5e1", "", "1234567890123456789"])
    func aMalformedRSSINamesLineAndColumn(field: String) throws {
        let error = try #require(failure([Self.header, "-70,\(field),0,1,2,0,0,0,0,0,0,5"]))
        #expect(error.line == 2)
        #expect(error.column == 2)
        #expect(error.description.contains("line 2, column 2 (WAP002)"))
        #expect(error.description.contains("\"\(field)\" is not a decimal number"))
    }

    @Test func aPositiveDecimalRSSIIsRejected() throws {
        let error = try #require(failure([Self.header, "-70,0.5,0,1,2,0,0,0,0,0,0,5"]))
        #expect(error.column == 2)
        #expect(error.description.contains("RSSI 0.5"))
    }

    @Test func aDecimalFloorIsRejectedNamingTheColumn() throws {
        let error = try #require(failure([Self.header, "-70,100,0,1,2,2.5,0,0,0,0,0,5"]))
        #expect(error.columnName == "FLOOR")
    }

    @Test func anEmptyFileSaysSo() throws {
        let error = try #require(failure([]))
        #expect(error.line == 1)
        #expect(error.description.contains("empty"))
    }
}
