import DaemonSupport
import Foundation
import Logging
import ScanContract
import SwitchdStore

/// Locates a tag once per window, when the window is closed, instead of once for each fixed
/// scanner's post of it: every scanner posts its window of the tag shortly after the window's
/// end, one after another, and the position is the one from all of them.
///
/// A tag's window is open from its first post until a post of another window of the tag
/// arrives (that post closes it) or no post of it arrives for ``closeAfter`` on `clock` (a tag
/// no scanner hears any more; each post of the window restarts that wait, so slow scanners
/// posting one after another are all counted). Closing it runs
/// ``TagTracker/locate(_:at:storedUpTo:)`` at the window's end, once, from the sightings stored
/// up to the window's last post. A window closed by a later post is in that post's answer; one
/// closed on the clock is told to `located` (the tag's position feed); both are stored, so
/// `GET /v1/tags/{id}/positions` lists every closed window. Another window is usually later; an
/// earlier one is a replay moving to another stretch of time, or a scanner's post of a window
/// nobody else reported, and is a window of its own. A post of one of the tag's last
/// ``rememberedWindows`` closed windows arrives too late: its sighting is stored (it counts in
/// the next window's horizon) but the window is not located again.
///
/// Each switchd instance has its own closer, which sees only the posts that reached it; behind a
/// load balancer one window's posts reach several. Every instance that received a post of the
/// window closes it, each locating from all the window's sightings in the store, and the store
/// keeps the first position of a window (``AppDatabase/storeTagPosition(of:at:onFloor:locating:)``):
/// the others' closes return that one, so the feed holds one position per window, and the tag's
/// stored track is stepped once per window, whichever instance closed it (docs/scale-out.md).
actor TagWindowCloser {
    let tracker: TagTracker
    let closeAfter: Duration
    /// Told of the positions of windows closed on the clock (a request's closes are in its answer).
    let located: @Sendable ([TagPosition]) async -> Void
    let logger: Logger
    /// The clock, read as the time since this closer was made.
    private let time: ElapsedTime

    private struct OpenWindow {
        var end: Date
        /// The last sighting stored by any post of the window.
        var storedUpTo: Int64?
        /// ``TagWindowCloser/time`` at the window's last post.
        var lastPost: Duration
    }

    private var open: [Int64: OpenWindow] = [:]
    /// Each tag's last closed windows' ends, oldest first.
    private var closed: [Int64: [Date]] = [:]

    /// How many closed windows of each tag a late post is recognised by.
    static let rememberedWindows = 16

    /// Longer than the scanners take to post a window after its end (a quarter second, and the
    /// network) or one after another, short of two windows.
    static let defaultCloseAfter: Duration = .milliseconds(1500)

    init(
        tracker: TagTracker, clock: any Clock<Duration> = ContinuousClock(), closeAfter: Duration = defaultCloseAfter, logger: Logger,
        located: @escaping @Sendable ([TagPosition]) async -> Void
    ) {
        time = ElapsedTime(clock)
        self.tracker = tracker
        self.closeAfter = closeAfter
        self.logger = logger
        self.located = located
    }

    /// Takes the tags a batch heard, each with the end of its newest window in the batch, and
    /// the ID of the last sighting the batch stored; returns the positions of the windows this
    /// closed (other windows of those tags).
    ///
    /// - Throws: what the store throws while locating, except for a tag deleted meanwhile
    ///   (skipped).
    func heard(_ tags: [Int64: Date], storedUpTo: Int64?) async throws -> [TagPosition] {
        var positions: [TagPosition] = []
        for (tagID, end) in tags.sorted(by: { $0.key < $1.key }) {
            if closed[tagID]?.contains(end) == true { continue }
            if let window = open[tagID], window.end != end {
                if let position = try await close(tagID, window) { positions.append(position) }
            }
            // Another batch may have moved on while this one located.
            if closed[tagID]?.contains(end) == true { continue }
            let isNew = open[tagID]?.end != end
            // Posts of one window arrive at once and may reach here in another order than they
            // were stored: the window counts every sighting stored by any of them.
            let before = isNew ? nil : open[tagID]?.storedUpTo
            open[tagID] = OpenWindow(end: end, storedUpTo: [before, storedUpTo].compactMap { $0 }.max(), lastPost: time.now)
            if isNew {
                Task { await self.closeWhenQuiet(tagID, end) }
            }
        }
        return positions
    }

    /// Forgets a deleted tag's windows.
    func forget(_ tagID: Int64) {
        open[tagID] = nil
        closed[tagID] = nil
    }

    /// Waits until the window had no post for ``closeAfter`` and closes it, unless a later post
    /// closed it first. A failure to locate is logged: the window's sightings stay stored.
    private func closeWhenQuiet(_ tagID: Int64, _ end: Date) async {
        while let window = open[tagID], window.end == end {
            let due = window.lastPost + closeAfter
            guard time.now >= due else {
                do {
                    try await time.sleep(until: due)
                } catch {
                    return
                }
                continue
            }
            do {
                if let position = try await close(tagID, window) { await located([position]) }
            } catch {
                logger.error("Could not locate a tag at the end of its window", metadata: ["tag": "\(tagID)", "error": "\(error)"])
            }
            return
        }
    }

    /// Marks the window closed before locating, so no other caller closes it too; nil when the
    /// tag is gone or no fixed scanner heard it.
    private func close(_ tagID: Int64, _ window: OpenWindow) async throws -> TagPosition? {
        open[tagID] = nil
        closed[tagID, default: []].append(window.end)
        if closed[tagID, default: []].count > Self.rememberedWindows { closed[tagID]?.removeFirst() }
        do {
            return try await tracker.locate(tagID, at: window.end, storedUpTo: window.storedUpTo)
        } catch StoreError.notFound {
            return nil
        }
    }
}
