import SwitchdStore

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
