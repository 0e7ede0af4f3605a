#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One page of a listing, and the cursor for the next (absent on the last page).
public struct Page<Item: Codable & Sendable>: Codable, Sendable {
    public var items: [Item]
    public var nextCursor: String?

    public init(items: [Item], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// An opaque position in a feed ordered by sequence number. Clients pass it back unchanged; its
/// text is base64url and may change between releases.
public struct FeedCursor: Hashable, Sendable {
    /// The sequence number of the last item already seen.
    public let afterSequence: Int64

    public init(afterSequence: Int64) {
        self.afterSequence = afterSequence
    }

    private static let prefix = "v1:"

    public var token: String {
        CursorText.token(Self.prefix + String(afterSequence))
    }

    /// Reads a token made by ``token``. Throws for anything else.
    public init(token: String) throws(FieldError) {
        guard let text = CursorText.text(of: token, maxLength: 64),
              text.hasPrefix(Self.prefix),
              let sequence = Int64(text.dropFirst(Self.prefix.count)), sequence >= 0 else {
            throw FieldError("is not a cursor this server gave out")
        }
        afterSequence = sequence
    }
}

/// The text of a cursor as clients see it: base64url without padding.
enum CursorText {
    static func token(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    /// The text `token` holds; nil when it is longer than `maxLength` or not base64url of UTF-8.
    static func text(of token: String, maxLength: Int) -> String? {
        guard token.count <= maxLength else { return nil }
        var base64 = token.replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
