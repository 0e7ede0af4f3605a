@testable import RadioWire
import Testing

/// Eddystone-TLM from bytes laid out as the Eddystone specification's TLM pages give them:
/// service data 0xFEAA (little-endian in the AD structure), frame type 0x20, version, then the
/// big-endian fields.
@Suite("Eddystone-TLM")
struct EddystoneTLMTests {
    /// Advertising data holding Flags and a Service Data structure with `frame` after the UUID.
    static func advertising(_ frame: [UInt8]) -> [UInt8] {
        [0x02, 0x01, 0x06, UInt8(frame.count + 3), 0x16, 0xAA, 0xFE] + frame
    }

    static func tlm(in frame: [UInt8]) throws(WireError) -> EddystoneTLM? {
        try EddystoneTLM.first(in: ADStructure.parse(advertising(frame)))
    }

    @Test func decodesPlainTelemetry() throws {
        let frame: [UInt8] = [
            0x20, 0x00,
            0x0B, 0xB8,                     // 3000 mV
            0x19, 0x80,                     // 25.5 °C (0x1980 / 256)
            0x00, 0x01, 0xE2, 0x40,         // 123,456 advertisements
            0x00, 0x00, 0x0E, 0x10,         // 3,600 tenths: 360 s
        ]
        let decoded = try Self.tlm(in: frame)
        #expect(decoded == .plain(.init(batteryMillivolts: 3000, temperature: 25.5, advertisementCount: 123_456, uptime: 360)))
    }

    @Test func negativeTemperatureAndWhatTheBeaconDoesNotMeasure() throws {
        let cold = try Self.tlm(in: [0x20, 0x00, 0x0B, 0xB8, 0xFF, 0x80, 0, 0, 0, 1, 0, 0, 0, 0])
        guard case .plain(let telemetry)? = cold else { Issue.record("expected plain TLM, got \(String(describing: cold))"); return }
        #expect(telemetry.temperature == -0.5, "0xFF80 is -128/256")
        let unmeasured = try Self.tlm(in: [0x20, 0x00, 0x00, 0x00, 0x80, 0x00, 0, 0, 0, 1, 0, 0, 0, 0])
        #expect(unmeasured == .plain(.init(batteryMillivolts: nil, temperature: nil, advertisementCount: 1, uptime: 0)))
    }

    @Test func encryptedTelemetryIsRecognisedAndLeftAlone() throws {
        let frame: [UInt8] = [0x20, 0x01] + Array(repeating: 0xA5, count: 12) + [0x12, 0x34] + [0xBE, 0xEF]
        #expect(try Self.tlm(in: frame) == .encrypted)
    }

    @Test func otherEddystoneFramesAndServicesAreNotTelemetry() throws {
        #expect(try Self.tlm(in: [0x00, 0xEB] + Array(repeating: 1, count: 16)) == nil, "an Eddystone-UID frame")
        let otherService = try ADStructure.parse([0x05, 0x16, 0x0F, 0x18, 0x20, 0x00])
        #expect(try EddystoneTLM.first(in: otherService) == nil, "another service's data starting 0x20")
    }

    @Test func aWrongLengthOrUnknownVersionIsAnErrorAtTheField() throws {
        let short = try #require(throws: WireError.self) { try Self.tlm(in: [0x20, 0x00, 0x0B, 0xB8]) }
        #expect(short.reason.contains("12 bytes"))
        let encryptedShort = try #require(throws: WireError.self) { try Self.tlm(in: [0x20, 0x01, 0x01]) }
        #expect(encryptedShort.reason.contains("16 bytes"))
        let unknown = try #require(throws: WireError.self) { try Self.tlm(in: [0x20, 0x02] + Array(repeating: 0, count: 12)) }
        #expect(unknown.reason.contains("version 2") && unknown.offset == 9, "at the version byte's end, after Flags and the UUID")
    }

    @Test func everyPrefixOfATLMFrameIsAnErrorOrNotTelemetry() throws {
        let frame: [UInt8] = [0x20, 0x00, 0x0B, 0xB8, 0x19, 0x80, 0x00, 0x01, 0xE2, 0x40, 0x00, 0x00, 0x0E, 0x10]
        for count in 0..<frame.count {
            do {
                #expect(try Self.tlm(in: Array(frame.prefix(count))) == nil, "a \(count)-byte prefix decoded")
            } catch {
                // A cut frame that names TLM is refused: good.
            }
        }
    }
}
