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

/// A position in a feed ordered by sequence number: the sequence number of the last item already
/// seen, in decimal (`^[0-9]{1,19}$`, as docs/openapi.yaml says). Clients pass `nextCursor` back
/// unchanged; any text of that form is a position (one past the last item reads an empty page),
/// so a client can also resume from a sequence number it kept.
public struct FeedCursor: Hashable, Sendable {
    /// The sequence number of the last item already seen.
    public let afterSequence: Int64

    public init(afterSequence: Int64) {
        self.afterSequence = afterSequence
    }

    public var token: String {
        String(afterSequence)
    }

    /// Reads 1 to 19 decimal digits; a number past `Int64.max` is taken as `Int64.max` (after
    /// every item).
    ///
    /// - Throws: for anything else: a sign, a space, another character, or more than 19 digits.
    public init(token: String) throws(FieldError) {
        let utf8 = token.utf8
        guard (1...19).contains(utf8.count), utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw FieldError("is not a cursor (1 to 19 decimal digits, the nextCursor of a page)")
        }
        afterSequence = Int64(token) ?? .max
    }
}
