import Foundation
import Positioning
@testable import ScanContract
import Testing

@Suite("RFC 3339 timestamps")
struct RFC3339Tests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("2026-11-22T06:50:00.125Z", 1_795_330_200.125),
        ("2026-11-22T07:50:00.125+01:00", 1_795_330_200.125),
        ("2026-11-22T01:20:00.125-05:30", 1_795_330_200.125),
        ("2000-02-29T12:00:00Z", 951_825_600.0),
        ("2026-11-22t06:50:00z", 1_795_330_200.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func readsWhatFoundationReads(text: String, seconds: Double) throws {
        let parsed = try #require(RFC3339.parse(text))
        #expect(abs(parsed.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test func agreesWithFoundationOnManyInstants() throws {
        var generator = SeededGenerator(seed: 3)
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double(generator.next() % 4_000_000_000_000) / 1000)
            let text = date.formatted(style)
            let parsed = try #require(RFC3339.parse(text), "\(text)")
            #expect(abs(parsed.timeIntervalSince1970 - (try style.parse(text)).timeIntervalSince1970) < 1e-6, "\(text)")
        }
    }

    @Test(arguments: [
        "", "2026-11-22", "2026-11-22T06:50:00", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
        "2026-11-22T24:00:00Z", "2026-11-22T06:60:00Z", "2026-11-22T06:50:00.Z", "2026-11-22T06:50:00+0100",
        "2026-11-22T06:50:00Zjunk", "２０２６-11-22T06:50:00Z", "2026-11-22T06:50:00.125+25:00",
    ])
    func refusesEverythingElse(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func everyPrefixOfATimestampIsRefusedWithoutACrash() {
        let text = Array("2026-11-22T06:50:00.125+01:00".utf8)
        for length in 0..<text.count {
            #expect(text[..<length].withUnsafeBufferPointer { RFC3339.parse(bytes: $0) } == nil)
        }
    }
}
