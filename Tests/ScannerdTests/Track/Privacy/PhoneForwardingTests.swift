import Positioning
import Clocks
import Foundation
import Harness
import ScanContract
import Testing
@testable import scannerd

/// Track mode with a watched phone (`irk` tag): its rotating private addresses are resolved on
/// the Pi and forwarded under its fingerprint; strangers' addresses never leave.
@Suite("Phones followed by their key")
struct PhoneForwardingTests {
    @Test func aRotatingPhoneIsFollowedAndStrangersStayOnThePi() async throws {
        let key = try IdentityResolvingKey(parsing: PrivateAddressTests.sampleKey)
        let phone = TagIdentity.irk(IRKIdentity(fingerprint: "8ae5811774905ca9"))
        let client = ScriptedHTTPClient { request, _ in
            if request.method == .get {
                var scanSwitch = ScanSwitch(scannerID: testScanner, changedAt: Date(timeIntervalSince1970: 0), watchedTags: [phone])
                scanSwitch.watchedKeys = [WatchedKey(fingerprint: "8ae5811774905ca9", key: key)]
                return HTTPResponse(status: 200, body: try JSONCoding.encoder().encode(scanSwitch))
            }
            let batch = try JSONCoding.decoder().decode(SightingBatch.self, from: request.body ?? Data())
            return HTTPResponse(
                status: 201, body: try JSONCoding.encoder().encode(SightingReceipt(stored: batch.sightings.count, ignored: 0, positions: []))
            )
        }
        let mine = try PrivateAddressTests.cipher()
        let strangers = try PrivateAddressTests.cipher("00112233445566778899aabbccddeeff")
        var random = SeededGenerator(seed: 3)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var hearings: [[TrackHearing]] = []
        var strangerAddresses: Set<MACAddress> = []
        // Three rotations of the phone, one per window, each heard among two strangers.
        for window in 0..<3 {
            let phoneAddress = try #require(PrivateAddress.make(random: UInt32(truncatingIfNeeded: random.next()), with: mine))
            for step in 0..<3 {
                let stranger = try #require(PrivateAddress.make(random: UInt32(truncatingIfNeeded: random.next()), with: strangers))
                strangerAddresses.insert(stranger)
                let time = start.addingTimeInterval(Double(window) + Double(step) * 0.2 + 0.1)
                hearings.append([
                    TrackHearing(identities: [.address(phoneAddress)], rssi: -60 - step, time: time),
                    TrackHearing(identities: [.address(stranger)], rssi: -50, time: time),
                ])
            }
        }
        let heard = AsyncStream<[TrackHearing]> { continuation in
            for group in hearings { continuation.yield(group) }
            continuation.finish()
        }
        let forwarder = TrackForwarderTests.forwarder(client, clock: TestClock(), start: start)
        #expect(try await forwarder.run(heard) == 3, "one sighting per window, each rotation followed")

        let posts = await client.requests.filter { $0.method == .post }
        let bodies = posts.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        let batches = try posts.map { try JSONCoding.decoder().decode(SightingBatch.self, from: $0.body ?? Data()) }
        #expect(batches.flatMap(\.sightings).map(\.identity) == [phone, phone, phone])
        #expect(batches.flatMap(\.sightings).map(\.count) == [3, 3, 3])
        for body in bodies {
            #expect(!body.contains(PrivateAddressTests.sampleKey), "the key never goes back")
            for stranger in strangerAddresses { #expect(!body.contains(stranger.description)) }
        }
    }
}
