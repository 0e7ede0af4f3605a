@testable import Evaluation
import Foundation
import Testing

/// Builds small zip archives by the APPNOTE layout: local header + data per member, then the
/// central directory and its end record. CRCs are left 0 (the reader does not check them).
struct ZipBuilder {
    var members: [(name: String, method: UInt16, data: [UInt8], size: Int)] = []

    mutating func stored(_ name: String, _ text: String) {
        members.append((name, 0, Array(text.utf8), text.utf8.count))
    }

    /// Deflated with the system's gzip (`-n`: no name, so the header is 10 bytes; the trailer 8).
    mutating func deflated(_ name: String, _ text: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-n"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let gzip = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        members.append((name, 8, Array(gzip[10..<(gzip.count - 8)]), text.utf8.count))
    }

    var bytes: [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        var out: [UInt8] = [], directory: [UInt8] = []
        for member in members {
            let name = Array(member.name.utf8)
            let offset = out.count
            out += le32(0x0403_4B50) + le16(20) + le16(0) + le16(Int(member.method)) + le16(0) + le16(0) + le32(0)
                + le32(member.data.count) + le32(member.size) + le16(name.count) + le16(0) + name + member.data
            directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(Int(member.method)) + le16(0) + le16(0) + le32(0)
                + le32(member.data.count) + le32(member.size) + le16(name.count) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0)
                + le32(offset) + name
        }
        let start = out.count
        return out + directory + le32(0x0605_4B50) + le16(0) + le16(0) + le16(members.count) + le16(members.count)
            + le32(directory.count) + le32(start) + le16(0)
    }
}

@Suite("BLE evaluation: zip and xlsx")
struct BLEXLSXTests {
    static let workbook = #"<?xml version="1.0"?><workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Zigbee" sheetId="1" r:id="rId1"/><sheet name="BLE" sheetId="2" r:id="rId2"/></sheets></workbook>"#
    static let relations = #"<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Target="worksheets/sheet2.xml"/></Relationships>"#
    static let strings = #"<sst><si><t>x</t></si><si><r><t>RSSI</t></r><r><t xml:space="preserve"> A</t></r></si></sst>"#
    static let sheet2 = #"<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c></row><row r="3"><c r="A3"><v>1.5</v></c><c r="B3" t="str"><v>note</v></c><c r="C3"><v>63</v></c></row></sheetData></worksheet>"#

    func book(deflate: Bool) throws -> [UInt8] {
        var zip = ZipBuilder()
        zip.stored("xl/workbook.xml", Self.workbook)
        zip.stored("xl/_rels/workbook.xml.rels", Self.relations)
        if deflate {
            try zip.deflated("xl/sharedStrings.xml", Self.strings)
            try zip.deflated("xl/worksheets/sheet2.xml", Self.sheet2)
        } else {
            zip.stored("xl/sharedStrings.xml", Self.strings)
            zip.stored("xl/worksheets/sheet2.xml", Self.sheet2)
        }
        return zip.bytes
    }

    @Test(arguments: [false, true]) func sheetsAreReadIntoAGrid(deflate: Bool) throws {
        let grid = try XLSXWorkbook(try book(deflate: deflate)).sheet("BLE")
        #expect(grid.count == 3)
        #expect(grid[0] == [.text("x"), .empty, .text("RSSI A")])
        #expect(grid[1] == [])
        #expect(grid[2] == [.number(1.5), .text("note"), .number(63)])
    }

    @Test func cellReferencesAreZeroBased() {
        #expect(XLSXWorkbook.cellReference("B12")! == (11, 1))
        #expect(XLSXWorkbook.cellReference("AA1")! == (0, 26))
        #expect(XLSXWorkbook.cellReference("12") == nil)
    }

    @Test func aMissingSheetNamesTheSheetsThereAre() throws {
        #expect {
            try XLSXWorkbook(try book(deflate: false)).sheet("WiFi")
        } throws: { "\($0)" == "no sheet \"WiFi\"; the workbook has BLE, Zigbee" }
    }

    @Test func aMissingPartIsAClearError() throws {
        #expect {
            try XLSXWorkbook(try book(deflate: false)).sheet("Zigbee")
        } throws: { "\($0)".contains("no member \"xl/worksheets/sheet1.xml\"") }
    }

    @Test func notAZipOrATruncatedOneIsAClearError() throws {
        #expect { try ZipArchive(Array("plain text".utf8)) } throws: { "\($0)".contains("not a zip archive") }
        let whole = try book(deflate: true)
        // Cutting the tail removes the end record; cutting a member's data is seen on reading it.
        #expect { try ZipArchive(Array(whole.prefix(whole.count - 30))) } throws: { "\($0)".contains("zip") }
        var zip = ZipBuilder()
        try zip.deflated("a.xml", String(repeating: "<a>fingerprint</a>", count: 500))
        var bytes = zip.bytes
        let member = try #require(zip.members.first)
        bytes.replaceSubrange((30 + 5 + member.data.count / 2)..<(30 + 5 + member.data.count), with: [UInt8](repeating: 0xFF, count: member.data.count - member.data.count / 2))
        #expect { try ZipArchive(bytes).contents(of: "a.xml") } throws: { "\($0)".contains("a.xml") }
    }

    @Test func malformedXMLNamesThePart() throws {
        var zip = ZipBuilder()
        zip.stored("xl/workbook.xml", "<workbook><sheets></workbook>")
        zip.stored("xl/_rels/workbook.xml.rels", Self.relations)
        #expect { try XLSXWorkbook(zip.bytes) } throws: { "\($0)".contains("xl/workbook.xml: malformed XML") }
    }
}
