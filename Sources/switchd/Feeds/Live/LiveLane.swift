import Foundation
import ScanContract
import SwitchdStore

/// One feed of a live stream: reads what came since it last read, and waits for more.
protocol LiveLane: Sendable {
    var feed: LiveFeedName { get }
    /// The sequence sent through (or read past), the lane's entry in the stream's
    /// ``LiveCursor``; nil for a lane that resumes from its state now (switches).
    var covered: Int64? { get }
    /// The events since the last read: each with its data and the cursor entry once it is sent;
    /// `more` when a full page came back and the next read follows at once.
    mutating func read(encoder: JSONEncoder) async throws -> (events: [LiveEvent], more: Bool)
    /// Returns once there may be more to read, or on cancellation.
    func waitForChange() async
}

/// One event a lane read: its data, and the lane's cursor entry once it is sent.
struct LiveEvent: Sendable {
    var sequence: Int64?
    var data: String
}

/// A lane over a table's rows (``FeedSource``), keeping those that `keep` passes. The database
/// is the source of truth, as for the single streams: nothing is skipped or sent twice.
struct RowLane<Item: Encodable & Sendable>: LiveLane {
    let feed: LiveFeedName
    let source: FeedSource<Item>
    let keep: @Sendable (Item) -> Bool
    private var sentThrough: Int64

    init(_ feed: LiveFeedName, source: FeedSource<Item>, after: Int64, keep: @escaping @Sendable (Item) -> Bool) {
        self.feed = feed
        self.source = source
        self.keep = keep
        self.sentThrough = after
    }

    var covered: Int64? { sentThrough }

    mutating func read(encoder: JSONEncoder) async throws -> (events: [LiveEvent], more: Bool) {
        let pageSize = FeedSource<Item>.streamPageSize
        let slice = try await source.read(sentThrough, pageSize)
        let events = try slice.items.filter(keep).map { item in
            LiveEvent(sequence: source.sequence(item), data: String(decoding: try encoder.encode(item), as: UTF8.self))
        }
        if slice.items.count == pageSize, let last = slice.items.last {
            sentThrough = source.sequence(last)
            return (events, true)
        }
        // Every row up to the end of the feed at the time of the read has been seen.
        sentThrough = max(slice.items.last.map(source.sequence) ?? sentThrough, slice.endOfFeed)
        return (events, false)
    }

    func waitForChange() async {
        await source.feed.waitForRows(after: sentThrough)
    }
}

/// A lane over scanners' switches: each one as it is now, then each new revision. A scanner
/// deleted meanwhile drops out.
struct SwitchLane: LiveLane {
    let database: AppDatabase
    let hub: SwitchHub
    private(set) var scanners: [ScannerID]
    private var sent: [ScannerID: Int] = [:]
    /// ``SwitchHub/anyChange`` as it was before the last read.
    private var seen: Int64 = 0

    init(database: AppDatabase, hub: SwitchHub, scanners: Set<ScannerID>) {
        self.database = database
        self.hub = hub
        self.scanners = scanners.sorted()
    }

    var feed: LiveFeedName { .switch }
    var covered: Int64? { nil }

    mutating func read(encoder: JSONEncoder) async throws -> (events: [LiveEvent], more: Bool) {
        seen = await hub.anyChange.value
        var events: [LiveEvent] = []
        var gone: Set<ScannerID> = []
        for scannerID in scanners {
            let current: ScanSwitch
            do {
                current = try await database.currentSwitch(of: scannerID)
            } catch StoreError.notFound {
                gone.insert(scannerID)
                continue
            }
            guard current.revision > sent[scannerID] ?? 0 else { continue }
            sent[scannerID] = current.revision
            events.append(LiveEvent(sequence: nil, data: String(decoding: try encoder.encode(current), as: UTF8.self)))
        }
        scanners.removeAll { gone.contains($0) }
        return (events, false)
    }

    func waitForChange() async {
        await hub.anyChange.wait(untilAbove: seen)
    }
}
