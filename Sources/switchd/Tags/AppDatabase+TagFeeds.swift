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

    /// One tag's events, as a feed for paging and streaming.
    func tagEventSource(of tagID: Int64, feed: SequenceFeed) -> FeedSource<TagEvent> {
        FeedSource(
            event: "tagEvent", sequence: { $0.id },
            read: { after, limit in try await tagEvents(of: tagID, after: after, limit: limit) },
            end: { try await endOfTagEventFeed() }, feed: feed
        )
    }
}
