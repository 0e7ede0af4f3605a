import Foundation
import ScanContract
import SwitchdStore

extension AppDatabase {
    /// One tag's positions (every tag's when `tagID` is nil) in `since..<until`, as a feed for
    /// paging and streaming.
    func tagPositionSource(of tagID: Int64?, since: Date?, until: Date?, feed: SequenceFeed) -> FeedSource<TagPosition> {
        FeedSource(
            event: "tagPosition", sequence: { $0.id },
            read: { after, limit in try await tagPositions(of: tagID, since: since, until: until, after: after, limit: limit) },
            end: { try await endOfTagPositionFeed() }, feed: feed
        )
    }

    /// One tag's events (``PresenceEvent``s with its `tagID`) matching `filter`, as a feed for
    /// paging and streaming; their IDs are those of `/v1/events`.
    func tagEventSource(of tagID: Int64, matching filter: PresenceEventFilter, feed: SequenceFeed) -> FeedSource<PresenceEvent> {
        var filter = filter
        filter.tagID = tagID
        return FeedSource(
            event: "tagEvent", sequence: { $0.id },
            read: { [filter] after, limit in try await presenceEvents(matching: filter, after: after, limit: limit) },
            end: { try await endOfPresenceEventFeed() }, feed: feed
        )
    }
}
