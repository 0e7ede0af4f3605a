import ScanContract
import SwitchdStore

extension AppDatabase {
    /// The stored readings matching `filter`, as a feed for paging and streaming.
    func measurementSource(matching filter: MeasurementFilter, feed: SequenceFeed) -> FeedSource<StoredMeasurement> {
        FeedSource(
            event: "measurement", sequence: { $0.sequence },
            read: { after, limit in try await measurements(matching: filter, after: after, limit: limit) },
            end: { try await endOfMeasurementFeed() }, feed: feed
        )
    }

    /// The stored positions matching `filter`, as a feed for paging and streaming.
    func positionSource(matching filter: PositionFilter, feed: SequenceFeed) -> FeedSource<Position> {
        FeedSource(
            event: "position", sequence: { $0.id },
            read: { after, limit in try await positions(matching: filter, after: after, limit: limit) },
            end: { try await endOfPositionFeed() }, feed: feed
        )
    }

    /// The stored presence events matching `filter`, as a feed for paging, streaming and following.
    func presenceEventSource(matching filter: PresenceEventFilter, feed: SequenceFeed) -> FeedSource<PresenceEvent> {
        FeedSource(
            event: "presence", sequence: { $0.id },
            read: { after, limit in try await presenceEvents(matching: filter, after: after, limit: limit) },
            end: { try await endOfPresenceEventFeed() }, feed: feed
        )
    }
}
