#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The tags a listening scanner forwards, as switchd pushes them with the switch
/// (``ScanSwitch/watchedTags``). A scanner long-polling its switch sends the ``digest(of:)`` of
/// the list it holds (`?watched=`); switchd answers as soon as its own list has another digest,
/// so a tag added or removed reaches every listening scanner without a new revision.
public enum WatchedTags {
    /// 16 hex digits that are the same for the same set of identities, in any order: FNV-1a
    /// (64 bits) of their sorted ``TagIdentity/key``s, one per line. The same on every platform
    /// and in every process (unlike `Hasher`).
    ///
    /// `keyed` names the `irk` identities whose key is held (by fingerprint): their line gains
    /// `+key`, so a scanner that holds a phone's fingerprint without its key (a switchd whose
    /// tag-keys.key could not open it) is answered once a switchd can send the key. A list without
    /// keys has the digest it always had.
    public static func digest(of identities: [TagIdentity], keyed: Set<String> = []) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let lines = identities.map { identity in
            if case .irk(let irk) = identity, keyed.contains(irk.fingerprint) { return identity.key + "+key" }
            return identity.key
        }
        for key in Set(lines).sorted() {
            for byte in key.utf8 + [UInt8(ascii: "\n")] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `scanSwitch` with ``ScanSwitch/watchedTags`` set to the longest prefix of `identities`
    /// (in their order of priority) whose JSON keeps the whole switch within
    /// ``ScanSwitch/answerLimit``, and ``ScanSwitch/watchedLeftOut`` to the number left off (nil
    /// when all fit). Identities repeated in `identities` are sent once. Each `irk` identity kept
    /// whose key `keys` holds (by fingerprint) has it in ``ScanSwitch/watchedKeys``, counted in
    /// the room; nil when none has.
    ///
    /// - Throws: `EncodingError` when an identity or the switch cannot be encoded as JSON.
    public static func fitting(
        _ identities: [TagIdentity], keys: [String: IdentityResolvingKey] = [:], in scanSwitch: ScanSwitch
    ) throws -> ScanSwitch {
        var seen = Set<String>()
        let unique = identities.filter { seen.insert($0.key).inserted }
        let encoder = JSONCoding.encoder()
        var empty = scanSwitch
        empty.watchedTags = []
        // The count as its longest: what is left off can only be fewer.
        empty.watchedLeftOut = unique.count
        var room = ScanSwitch.answerLimit - (try encoder.encode(empty).count)
        // The field's name, brackets and quotes, when a key is sent.
        room -= keys.isEmpty ? 0 : 20
        var kept: [TagIdentity] = []
        var keptKeys: [WatchedKey] = []
        for identity in unique {
            // Each entry takes its JSON and a comma (one comma too many: a byte of slack).
            room -= try encoder.encode(identity).count + 1
            var watchedKey: WatchedKey?
            if case .irk(let irk) = identity, let key = keys[irk.fingerprint] {
                watchedKey = WatchedKey(fingerprint: irk.fingerprint, key: key)
                room -= try encoder.encode(watchedKey).count + 1
            }
            guard room >= 0 else { break }
            kept.append(identity)
            if let watchedKey { keptKeys.append(watchedKey) }
        }
        var fitted = scanSwitch
        fitted.watchedTags = kept
        fitted.watchedKeys = keptKeys.isEmpty ? nil : keptKeys
        fitted.watchedLeftOut = kept.count < unique.count ? unique.count - kept.count : nil
        return fitted
    }
}
