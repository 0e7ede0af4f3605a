#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RadioWire
import ScanContract

/// Which Eddystone-TLM telemetry the listening role forwards: the latest of each watched emitter,
/// at most one per emitter every ``interval`` seconds of advertisement time (not one per
/// advertisement: a beacon sends TLM every few seconds and its battery moves over weeks).
///
/// A TLM frame names no identity: an Eddystone beacon sends its UID (or an iBeacon) and its TLM
/// in turns from one device address. So the telemetry is the watched identities' heard from the
/// same address (remembered from their own advertisements), and the address's own when it is
/// watched (a tag registered by address). Telemetry of an address no watched identity was heard
/// from is dropped.
struct TelemetryThrottle {
    /// Seconds between two reports of one emitter.
    var interval: Double = Self.defaultInterval
    /// At most this many addresses are remembered; past it the memory starts again (addresses of
    /// phones rotate every quarter hour, and a beacon's next identity frame puts it back).
    var maxAddresses = 4096
    private var identitiesByAddress: [MACAddress: Set<TagIdentity>] = [:]
    private var lastQueued: [TagIdentity: Date] = [:]
    private var pending: [TagIdentity: HeardTelemetry] = [:]

    static let defaultInterval = 60.0

    init(interval: Double = Self.defaultInterval) {
        precondition(interval >= 0, "an interval is some time or none")
        self.interval = interval
    }

    /// Takes one advertisement as track mode does (`identities` resolved, with the device
    /// address last) against what is `watched`.
    mutating func heard(_ identities: [TagIdentity], telemetry: EddystoneTLM.Telemetry?, at time: Date, watched: Set<TagIdentity>) {
        guard let address = identities.lazy.compactMap(Self.address).first else { return }
        let named = Set(identities.filter { watched.contains($0) && Self.address($0) == nil })
        if !named.isEmpty {
            if identitiesByAddress[address] == nil, identitiesByAddress.count >= maxAddresses { identitiesByAddress = [:] }
            identitiesByAddress[address, default: []].formUnion(named)
        }
        guard let telemetry else { return }
        var owners = (identitiesByAddress[address] ?? []).filter(watched.contains)
        if watched.contains(.address(address)) { owners.insert(.address(address)) }
        for owner in owners {
            if pending[owner] == nil {
                if let last = lastQueued[owner], time.timeIntervalSince(last) < interval { continue }
                lastQueued[owner] = time
            }
            pending[owner] = HeardTelemetry(
                identity: owner, heardAt: time, batteryMillivolts: telemetry.batteryMillivolts, temperatureCelsius: telemetry.temperature,
                advertisementCount: Int64(telemetry.advertisementCount), uptimeSeconds: telemetry.uptime
            )
        }
    }

    /// A scan session's advertisements (``SessionTelemetry``): every iBeacon it records is
    /// watched, named by its own identity and address; its TLM goes to the iBeacons heard from
    /// the same address. Without a watched list, what is remembered is bounded by
    /// ``maxAddresses`` (past it, the memory starts again).
    mutating func heardInSession(_ hearing: TrackHearing) {
        let isIBeacon: (TagIdentity) -> Bool = { if case .iBeacon = $0 { true } else { false } }
        if lastQueued.count >= maxAddresses { lastQueued = [:] }
        guard hearing.telemetry != nil || hearing.identities.contains(where: isIBeacon) else { return }
        if hearing.telemetry == nil, let address = hearing.identities.lazy.compactMap(Self.address).first,
           let known = identitiesByAddress[address], hearing.identities.allSatisfy({ !isIBeacon($0) || known.contains($0) }) {
            return // Nothing new: the common case, one look-up per reading.
        }
        let watched = Set(hearing.identities.filter(isIBeacon)).union(
            hearing.identities.lazy.compactMap(Self.address).first.flatMap { identitiesByAddress[$0] } ?? []
        )
        heard(hearing.identities, telemetry: hearing.telemetry, at: hearing.time, watched: watched)
    }

    /// The reports waiting to go, by identity key; none wait afterwards.
    mutating func take() -> [HeardTelemetry] {
        defer { pending = [:] }
        return pending.values.sorted { $0.identity.key < $1.identity.key }
    }

    /// Forgets what is no longer watched.
    mutating func watch(_ identities: Set<TagIdentity>) {
        pending = pending.filter { identities.contains($0.key) }
        lastQueued = lastQueued.filter { identities.contains($0.key) }
    }

    private static func address(_ identity: TagIdentity) -> MACAddress? {
        if case .address(let address) = identity { address } else { nil }
    }
}
