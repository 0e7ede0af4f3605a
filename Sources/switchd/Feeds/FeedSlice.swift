/// Stored rows after a sequence number, and how far the feed had got when they were read.
struct FeedSlice<Item: Sendable>: Sendable {
    /// Ascending by sequence.
    var items: [Item]
    /// The highest sequence given out when the slice was read (matching the filter or not).
    /// Every row up to it that matches the filter and is not in `items` came before
    /// `items.first`, or — when `items.count` hit the limit — may come after `items.last`.
    var endOfFeed: Int64
}

/// A table read as a feed: rows matching a filter after a sequence number, in sequence order.
/// Paging (`GET` with `cursor`) and the live streams both read through one of these.
struct FeedSource<Item: Encodable & Sendable>: Sendable {
    /// The `event:` name of the stream's events.
    var event: String
    /// The item's sequence number: its event ID and cursor position.
    var sequence: @Sendable (Item) -> Int64
    /// Up to `limit` matching rows after `after`, read in one snapshot with the end of the feed.
    var read: @Sendable (_ after: Int64, _ limit: Int) async throws -> FeedSlice<Item>
    /// The highest sequence given out so far: where "from now" starts.
    var end: @Sendable () async throws -> Int64
    /// Announces new rows.
    var feed: SequenceFeed
}
