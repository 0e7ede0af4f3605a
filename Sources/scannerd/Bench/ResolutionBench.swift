#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DaemonSupport
import Positioning
import ScanContract

/// What `scannerd bench` measures of phones (`irk` tags): track mode's path for one advertisement
/// (HCI event decoding, the tag identities, ``AddressResolver``, ``TrackWindows``) over a made
/// stream in which most advertisements are strangers' resolvable private addresses, with no key
/// watched (today's cost) and with 20 and 200. The stream is the same for every key count; CPU
/// time of the calling thread, one pass after a warm-up pass.
struct ResolutionBench {
    struct Result: Sendable {
        var keys: Int
        var advertisements: Int
        /// Advertisements that resolved to the watched phone (its share of the stream when all is well).
        var resolved: Int
        var sightings: Int
        var cpu: Duration

        var microsecondsPerAdvertisement: Double {
            let microseconds: Double = cpu / .microseconds(1)
            return microseconds / Double(max(advertisements, 1))
        }
    }

    /// The stream: HCI LE advertising reports, one per event.
    let packets: [[UInt8]]
    /// Advertisements of the watched phone in ``packets``.
    let phoneAdvertisements: Int
    /// The phone's key, and strangers' keys (none of which is watched).
    let phoneKey: IdentityResolvingKey

    /// `count` advertisements at 500/s: one in ten from the watched phone, the rest from
    /// `strangers` phones taking turns; every device makes a new address every `rotateEvery` of
    /// its advertisements (1: every advertisement is an address never heard, the worst case).
    static func make(count: Int, strangers: Int = 100, rotateEvery: Int) -> ResolutionBench {
        var random = SeededGenerator(seed: 30)
        let phoneKey = IdentityResolvingKey(bytes: (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        let phoneCipher = ResolvingCipher(key: phoneKey)!
        let strangerCiphers = (0..<strangers).map { _ in
            ResolvingCipher(key: IdentityResolvingKey(bytes: (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }))!
        }
        var addresses = [MACAddress](repeating: MACAddress(rawValue: 0), count: strangers + 1)
        var heardCount = [Int](repeating: 0, count: strangers + 1)
        var packets: [[UInt8]] = []
        var phone = 0
        for index in 0..<count {
            let device = index % 10 == 0 ? strangers : index % strangers
            if heardCount[device] % rotateEvery == 0 {
                let cipher = device == strangers ? phoneCipher : strangerCiphers[device]
                addresses[device] = PrivateAddress.make(random: UInt32(truncatingIfNeeded: random.next()), with: cipher)!
            }
            heardCount[device] += 1
            if device == strangers { phone += 1 }
            packets.append(report(from: addresses[device], rssi: -60 - Int8(index % 30)))
        }
        return ResolutionBench(packets: packets, phoneAdvertisements: phone, phoneKey: phoneKey)
    }

    /// Runs the stream with the phone's key and `keys - 1` others watched (none watched for 0).
    func run(keys: Int) -> Result {
        var random = SeededGenerator(seed: UInt64(keys) + 1)
        var watched: [TagIdentity] = []
        if keys > 0 {
            watched.append(.irk(IRKIdentity(fingerprint: "0000000000000000", key: phoneKey)))
            for index in 1..<keys {
                let key = IdentityResolvingKey(bytes: (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                watched.append(.irk(IRKIdentity(fingerprint: hex16(index), key: key)))
            }
        }
        _ = pass(watching: watched) // Warm-up: caches, allocations.
        let started = CPUTime.thread
        let (resolved, sightings) = pass(watching: watched)
        return Result(keys: keys, advertisements: packets.count, resolved: resolved, sightings: sightings, cpu: CPUTime.thread - started)
    }

    private func pass(watching watched: [TagIdentity]) -> (resolved: Int, sightings: Int) {
        var resolver = AddressResolver()
        resolver.watch(watched)
        var windows = TrackWindows(length: 1, watched: Set(watched))
        var resolved = 0, sightings = 0
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for (index, packet) in packets.enumerated() {
            let time = start.addingTimeInterval(Double(index) / 500)
            for heard in HeardAdvertisement.decode(packet, at: time).heard {
                guard let hearing = TrackHearing(heard) else { continue }
                let identities = resolver.resolving(hearing.identities, at: time)
                if identities.count > hearing.identities.count { resolved += 1 }
                sightings += windows.add(identities, rssi: hearing.rssi, at: time).count
            }
        }
        return (resolved, sightings + windows.close(before: .distantFuture).count)
    }

    /// An LE Advertising Report (legacy, connectable, random address) of an Apple "nearby"
    /// advertisement, as phones send when idle.
    static func report(from address: MACAddress, rssi: Int8) -> [UInt8] {
        let data: [UInt8] = [0x02, 0x01, 0x1A, 0x0A, 0xFF, 0x4C, 0x00, 0x10, 0x05, 0x01, 0x18, 0x44, 0x2F, 0x7A]
        let report: [UInt8] = [0x00, 0x01] + address.octets.reversed() + [UInt8(data.count)] + data + [UInt8(bitPattern: rssi)]
        let parameters: [UInt8] = [0x02, 0x01] + report
        return [0x04, 0x3E, UInt8(parameters.count)] + parameters
    }
}

/// `value` as 16 lower-case hex digits.
private func hex16(_ value: Int) -> String {
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 16 - hex.count)) + hex
}
