/// Items: beacons with content for visitors in their metadata. `content` is the text in the
/// site's own language, `content.<language>` (a BCP 47 tag: `content.fr`, `content.pt-BR`) the
/// same in another; `name` (and `name.<language>`) names the item.
extension Beacon {
    /// Whether the metadata carries content for visitors.
    public var isItem: Bool {
        metadata.keys.contains { $0 == "content" || $0.hasPrefix("content.") }
    }

    /// `name` from the metadata, else "beacon <major>.<minor>".
    public var itemName: String {
        metadata["name"] ?? "beacon \(major).\(minor)"
    }
}
