import Clocks
import Foundation
import Harness
import ScanContract
import Testing
@testable import scannerd

/// Eddystone-TLM from the radio's bytes to the sightings batch: attributed to the watched
/// identity heard from the same address, forwarded at most once a minute per emitter (time is
/// the advertisements' own), encrypted TLM left alone.
@Suite("Telemetry forwarding")
struct TelemetryForwardingTests {
    static let bike = TagIdentity.eddystoneUID(namespace: TrackWindowsTests.namespace, instance: TrackWindowsTests.instance)

    /// A TLM advertisement as the Eddystone specification lays it out: Flags, then service data
    /// 0xFEAA, frame type 0x20, version 0, battery mV, temperature 8.8, PDU count, uptime tenths.
    static func tlm(millivolts: UInt16, count: UInt32 = 1000, version: UInt8 = 0) -> [UInt8] {
        let frame: [UInt8] = version == 0
            ? [0x20, 0x00, UInt8(millivolts >> 8), UInt8(millivolts & 0xFF), 0x16, 0x00]
                + withUnsafeBytes(of: count.bigEndian, Array.init) + [0x00, 0x00, 0x0E, 0x10]
            : [0x20, 0x01] + Array(repeating: 0xA5, count: 12) + [0x12, 0x34, 0xBE, 0xEF]
        return [0x02, 0x01, 0x06, UInt8(frame.count + 3), 0x16, 0xAA, 0xFE] + frame
    }

    static func hearings(_ data: [UInt8], at time: Date) throws -> [TrackHearing] {
        let packet = HeardAdvertisement.decode(TrackWindowsTests.report(data, rssi: -70), at: time)
        #expect(packet.malformed.isEmpty)
        return packet.heard.compactMap(TrackHearing.init)
    }

    @Test func telemetryGoesToTheIdentityOfItsAddressAtMostOnceAMinute() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var throttle = TelemetryThrottle()
        var watched: Set<TagIdentity> = [Self.bike]
        func hear(_ data: [UInt8], at seconds: Double) throws {
            for hearing in try Self.hearings(data, at: start.addingTimeInterval(seconds)) {
                throttle.heard(hearing.identities, telemetry: hearing.telemetry, at: hearing.time, watched: watched)
            }
        }
        try hear(Self.tlm(millivolts: 3100), at: 0)
        #expect(throttle.take().isEmpty, "TLM from an address no watched identity was heard from yet")
        try hear(TrackWindowsTests.eddystone, at: 0.1)
        try hear(Self.tlm(millivolts: 3000), at: 0.2)
        try hear(Self.tlm(millivolts: 2999), at: 0.3)
        let first = throttle.take()
        #expect(first.map(\.identity) == [Self.bike])
        #expect(first.first?.batteryMillivolts == 2999, "the latest of the slot")
        #expect(first.first?.temperatureCelsius == 22)
        #expect(first.first?.uptimeSeconds == 360)
        #expect(first.first?.heardAt == start.addingTimeInterval(0.3))
        try hear(Self.tlm(millivolts: 2990), at: 59.9)
        #expect(throttle.take().isEmpty, "within a minute of the last one sent")
        try hear(Self.tlm(millivolts: 2980, version: 1), at: 60.5)
        #expect(throttle.take().isEmpty, "encrypted TLM is left alone")
        try hear(Self.tlm(millivolts: 2980), at: 60.5)
        #expect(throttle.take().map(\.batteryMillivolts) == [2980])
        watched = []
        throttle.watch(watched)
        try hear(Self.tlm(millivolts: 2970), at: 200)
        #expect(throttle.take().isEmpty, "no longer watched")
    }

    @Test func aTagRegisteredByAddressGetsItsOwnTelemetry() throws {
        let address = TagIdentity.address(try MACAddress("01:02:03:04:05:06"))
        var throttle = TelemetryThrottle()
        for hearing in try Self.hearings(Self.tlm(millivolts: 2400), at: Date(timeIntervalSince1970: 1_800_000_000)) {
            throttle.heard(hearing.identities, telemetry: hearing.telemetry, at: hearing.time, watched: [address])
        }
        #expect(throttle.take().map(\.identity) == [address])
    }

    /// Through the listening role's loop: the telemetry rides in the batch of the window closed
    /// after it was heard, once; the next batches carry none.
    @Test func theForwarderSendsTelemetryWithSightings() async throws {
        let client = ScriptedHTTPClient { request, _ in
            if request.method == .get {
                return try TrackForwarderTests.switchAnswer(watching: [Self.bike])
            }
            let batch = try JSONCoding.decoder().decode(SightingBatch.self, from: request.body ?? Data())
            return HTTPResponse(
                status: 201, body: try JSONCoding.encoder().encode(SightingReceipt(stored: batch.sightings.count, ignored: 0, positions: []))
            )
        }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let packets: [(bytes: [UInt8], at: Double)] = [
            (TrackWindowsTests.eddystone, 0.1), (Self.tlm(millivolts: 2700), 0.2),
            (TrackWindowsTests.eddystone, 1.1), (Self.tlm(millivolts: 2690), 1.2),
            (TrackWindowsTests.eddystone, 2.1),
        ]
        var groups: [[TrackHearing]] = []
        for packet in packets { groups.append(try Self.hearings(packet.bytes, at: start.addingTimeInterval(packet.at))) }
        let heard = AsyncStream<[TrackHearing]> { continuation in
            for group in groups { continuation.yield(group) }
            continuation.finish()
        }
        #expect(try await TrackForwarderTests.forwarder(client, clock: TestClock(), start: start).run(heard) == 3)
        let batches = try await client.requests.dropFirst().map { try JSONCoding.decoder().decode(SightingBatch.self, from: $0.body ?? Data()) }
        #expect(batches.count == 3)
        #expect(batches.first?.telemetry == [HeardTelemetry(
            identity: Self.bike, heardAt: start.addingTimeInterval(0.2), batteryMillivolts: 2700, temperatureCelsius: 22,
            advertisementCount: 1000, uptimeSeconds: 360
        )])
        #expect(batches.dropFirst().allSatisfy { $0.telemetry == nil })
    }
}
