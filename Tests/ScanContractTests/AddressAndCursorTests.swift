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

    @Test(arguments: ["", "abc", "djE6LTE", "djI6MQ", String(repeating: "A", count: 100), "v1:5"])
    func foreignCursorsAreRefused(token: String) {
        #expect(throws: FieldError.self) { try FeedCursor(token: token) }
    }
}
