import Foundation
@testable import ScanContract
import Testing

@Suite("Addresses, scanner IDs and cursors")
struct AddressAndCursorTests {
    @Test(arguments: ["aa:bb:cc:dd:ee:ff", "AA-BB-CC-DD-EE-FF", "Aa:bB:cc:DD:ee:fF"])
    func macAddressesNormalise(text: String) throws {
        #expect(try MACAddress(text).description == "aa:bb:cc:dd:ee:ff")
    }

    @Test(arguments: ["", "aa:bb:cc:dd:ee", "aa:bb:cc:dd:ee:ff:00", "aabbccddeeff", "gg:bb:cc:dd:ee:ff", "a:bb:cc:dd:ee:ff", "aa:bb-cc:dd:ee:ff"])
    func badMACAddressesThrow(text: String) {
        #expect(throws: FieldError.self) { try MACAddress(text) }
    }

    @Test func octetsRoundTrip() throws {
        let address = try MACAddress(octets: [2, 0, 0, 0, 1, 0])
        #expect(address.octets == [2, 0, 0, 0, 1, 0])
        #expect(throws: FieldError.self) { try MACAddress(octets: [1, 2, 3]) }
    }

    @Test(arguments: ["default", "pi-1", "lab_3.a", String(repeating: "x", count: 64)])
    func goodScannerIDs(text: String) throws {
        #expect(try ScannerID(text).rawValue == text)
    }

    @Test(arguments: ["", "pi 1", "pi/1", "../etc", String(repeating: "x", count: 65), "π"])
    func badScannerIDs(text: String) {
        #expect(throws: FieldError.self) { try ScannerID(text) }
    }

    @Test(arguments: [Int64(0), 1, 42, Int64.max])
    func cursorsRoundTrip(sequence: Int64) throws {
        let cursor = FeedCursor(afterSequence: sequence)
        #expect(try FeedCursor(token: cursor.token) == cursor)
        #expect(!cursor.token.contains("="))
    }

    @Test(arguments: ["", "abc", "djE6LTE", "-1", "+1", " 1", "1e3", "1.0", String(repeating: "1", count: 20), "v1:5"])
    func foreignCursorsAreRefused(token: String) {
        #expect(throws: FieldError.self) { try FeedCursor(token: token) }
    }

    /// docs/openapi.yaml gives a sequence cursor as `^[0-9]{1,19}$`: every such text is a
    /// position, one past `Int64.max` included (after every item).
    @Test(arguments: [("0", Int64(0)), ("007", 7), ("9223372036854775807", .max), ("9999999999999999999", .max)])
    func everyDecimalCursorIsAPosition(token: String, sequence: Int64) throws {
        #expect(try FeedCursor(token: token).afterSequence == sequence)
    }

    @Test func scannerAndEmitterCursorsAreTheirKeys() throws {
        #expect(try KeyCursor(token: KeyCursor(afterKey: "pi-1").token).afterKey == "pi-1")
        #expect(throws: FieldError.self) { try KeyCursor(token: "pi 1") }
        #expect(try EmitterCursor(token: "beacon:ffff/1/2").afterKey == "beacon:ffff/1/2")
        #expect(throws: FieldError.self) { try EmitterCursor(token: "") }
        #expect(throws: FieldError.self) { try EmitterCursor(token: String(repeating: "é", count: 129)) }
    }
}
