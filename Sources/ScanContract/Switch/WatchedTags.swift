/// The tags a listening scanner forwards, as switchd pushes them with the switch
/// (``ScanSwitch/watchedTags``). A scanner long-polling its switch sends the ``digest(of:)`` of
/// the list it holds (`?watched=`); switchd answers as soon as its own list has another digest,
/// so a tag added or removed reaches every listening scanner without a new revision.
public enum WatchedTags {
    /// 16 hex digits that are the same for the same set of identities, in any order: FNV-1a
    /// (64 bits) of their sorted ``TagIdentity/key``s, one per line. The same on every platform
    /// and in every process (unlike `Hasher`).
    public static func digest(of identities: [TagIdentity]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for key in Set(identities.map(\.key)).sorted() {
            for byte in key.utf8 + [UInt8(ascii: "\n")] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
