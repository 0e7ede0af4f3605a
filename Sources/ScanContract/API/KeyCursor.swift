/// An opaque position in a list ordered by a text key (scanners by ID). Clients pass it back
/// unchanged; its text is base64url and may change between releases.
public struct KeyCursor: Hashable, Sendable {
    /// The key of the last item already seen.
    public let afterKey: String

    public init(afterKey: String) {
        self.afterKey = afterKey
    }

    private static let prefix = "k1:"

    public var token: String {
        CursorText.token(Self.prefix + afterKey)
    }

    /// Reads a token made by ``token``. Throws for anything else.
    public init(token: String) throws(FieldError) {
        // A key of this API is at most 64 bytes: its token is well under 128 characters.
        guard let text = CursorText.text(of: token, maxLength: 128), text.hasPrefix(Self.prefix) else {
            throw FieldError("is not a cursor this server gave out")
        }
        afterKey = String(text.dropFirst(Self.prefix.count))
    }
}
