import Foundation
import Positioning
import ScanContract
import Testing
@testable import scannerd

/// The spool's hand-written JSON must be exactly what `JSONCoding` writes.
@Suite("Measurement lines")
struct MeasurementLineTests {
    static let ssids = ["", "floorscan-lab", "quote\" back\\slash /slash", "tab\tnew\nline\r", "\u{1}\u{1f}\u{8}\u{c}\u{7f}", "café ☕️ 😀", "\u{2028}"]

    enum Precision { case seconds, milliseconds, any }

    func randomTime(_ precision: Precision, using generator: inout SeededGenerator) -> Date {
        let seconds = Double.random(in: 946_684_800..<4_102_444_800, using: &generator)
        switch precision {
        case .seconds: return Date(timeIntervalSince1970: seconds.rounded(.down))
        case .milliseconds: return Date(timeIntervalSince1970: (seconds * 1000).rounded(.down) / 1000)
        case .any: return Date(timeIntervalSince1970: seconds)
        }
    }

    func randomMeasurement(using generator: inout SeededGenerator, precision: Precision) -> ScanContract.Measurement {
        let time = randomTime(precision, using: &generator)
        let observation: Observation
        if Bool.random(using: &generator) {
            observation = .wifi(WiFiObservation(
                bssid: BSSID(rawValue: generator.next()), ssid: Self.ssids.randomElement(using: &generator)!,
                frequencyMHz: Int.random(in: 2_400...71_000, using: &generator)
            ))
        } else {
            observation = .ble(BLEObservation(
                address: BLEAddress(rawValue: generator.next()),
                beacon: BeaconID(uuid: UUID(), major: .random(in: 0...UInt16.max, using: &generator), minor: .random(in: 0...UInt16.max, using: &generator)),
                txPower: Int.random(in: -127...20, using: &generator)
            ))
        }
        return ScanContract.Measurement(
            id: UUID(), time: time, rssi: Int.random(in: -127...20, using: &generator),
            scan: Int.random(in: 0...100_000, using: &generator), observation: observation
        )
    }

    /// Whole seconds, so that both sides write `.000`; fractions are checked on their own below.
    @Test func linesAreWhatJSONCodingWrites() throws {
        var generator = SeededGenerator(seed: 2026)
        let encoder = JSONCoding.encoder()
        for _ in 0..<5_000 {
            let measurement = randomMeasurement(using: &generator, precision: .seconds)
            let line = String(decoding: MeasurementLine.encode(measurement), as: UTF8.self)
            let expected = String(decoding: try encoder.encode(measurement), as: UTF8.self)
            #expect(line == expected)
        }
    }

    /// `JSONCoding`'s formatter truncates the binary fraction, so a time of exactly .606 s may come
    /// out as .605; the spool's lines keep .606. Either way within a millisecond.
    @Test func fractionsOfASecondKeepTheirMilliseconds() throws {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<5_000 {
            let whole = randomTime(.milliseconds, using: &generator)
            let parsed = try #require(JSONCoding.parseDate(MeasurementLine.formatTime(whole)))
            #expect(abs(parsed.timeIntervalSince(whole)) < 0.000_5, "whole milliseconds are kept exactly")
            let any = randomTime(.any, using: &generator)
            let truncated = try #require(JSONCoding.parseDate(MeasurementLine.formatTime(any)))
            // Truncated to the millisecond; a time within a microsecond below one counts as it.
            #expect((-0.000_001..<0.001_001).contains(any.timeIntervalSince(truncated)))
            let theirs = try #require(JSONCoding.parseDate(JSONCoding.formatDate(any)))
            #expect(abs(truncated.timeIntervalSince(theirs)) <= 0.001_001)
        }
    }

    @Test func linesDecodeToTheSameMeasurement() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<1_000 {
            let measurement = randomMeasurement(using: &generator, precision: .milliseconds)
            var decoded = try JSONCoding.decoder().decode(ScanContract.Measurement.self, from: MeasurementLine.encode(measurement))
            #expect(abs(decoded.time.timeIntervalSince(measurement.time)) < 0.000_5)
            decoded.time = measurement.time
            #expect(decoded == measurement)
        }
    }

    @Test func aSpooledBatchIsWhatJSONCodingWritesForTheBatch() throws {
        var generator = SeededGenerator(seed: 11)
        let measurements = (0..<50).map { _ in randomMeasurement(using: &generator, precision: .seconds) }
        let scannerID = try ScannerID("pi_lab-2.b")
        var spooled = SpooledBatch(batchID: UUID(), scannerID: scannerID, revision: 12)
        for measurement in measurements {
            spooled.append(MeasurementLine.encode(measurement), id: measurement.id)
        }
        let batch = MeasurementBatch(batchID: spooled.batchID, scannerID: scannerID, switchRevision: 12, measurements: measurements)
        #expect(spooled.json == (try JSONCoding.encoder().encode(batch)))
        #expect(spooled.ids == measurements.map(\.id))
    }

    @Test func datesAcrossTheCalendar() {
        for (seconds, text) in [
            (0.0, "1970-01-01T00:00:00.000Z"), (951_782_400.5, "2000-02-29T00:00:00.500Z"),
            (4_102_444_799.999, "2099-12-31T23:59:59.999Z"), (1_795_000_000.0015, "2026-11-18T11:06:40.001Z"),
            (-0.0004, "1969-12-31T23:59:59.999Z"),
        ] {
            #expect(MeasurementLine.formatTime(Date(timeIntervalSince1970: seconds)) == text)
        }
    }
}
