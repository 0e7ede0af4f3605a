#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Positioning
import ScanContract

/// Track mode's windows: what a fixed scanner heard of each watched tag, per window of `length`
/// seconds, closed into ``Sighting``s (count, median, strongest) instead of sent advertisement by
/// advertisement. Only identities on the allow-list are kept, so the network carries only what
/// switchd asked for. Windows are aligned on multiples of `length` since 1970, so every fixed
/// scanner's windows end together and switchd locates a tag once per window.
///
/// Time is what the advertisements carry: a window closes when an advertisement of a later
/// window arrives, or when ``close(before:)`` is called with the time now (track mode's clock
/// does, shortly after each window's end). An advertisement of a window already closed arrives
/// too late and is dropped, so no window is sent twice.
struct TrackWindows {
    let length: Double
    private(set) var watched: Set<TagIdentity>
    private var openIndex: Int64?
    /// The last window closed with sightings in it.
    private var closedIndex: Int64?
    private var open: [TagIdentity: SightingWindow] = [:]

    init(length: Double, watched: Set<TagIdentity>) {
        precondition(length > 0, "a window lasts some time")
        self.length = length
        self.watched = watched
    }

    /// Changes what is watched; what was heard of a tag no longer watched is dropped.
    mutating func watch(_ identities: Set<TagIdentity>) {
        watched = identities
        open = open.filter { identities.contains($0.key) }
    }

    /// Takes one advertisement heard at `time` with `rssi` naming `identities`, and returns the
    /// sightings of the window it closed (none when it falls in the open window, or names no
    /// watched tag and closes nothing). An advertisement older than the open window, or of a
    /// window already closed, is dropped.
    mutating func add(_ identities: [TagIdentity], rssi: Int, at time: Date) -> [Sighting] {
        let index = windowIndex(of: time)
        var closed: [Sighting] = []
        if let openIndex, index > openIndex { closed = close(before: time) }
        if let openIndex, index < openIndex { return closed }
        if let closedIndex, index <= closedIndex { return closed }
        for identity in identities where watched.contains(identity) {
            openIndex = index
            open[identity, default: SightingWindow()].add(Double(rssi))
        }
        return closed
    }

    /// Closes the open window if it ended by `time`, returning its sightings, strongest tag first.
    mutating func close(before time: Date) -> [Sighting] {
        guard let openIndex, windowIndex(of: time) > openIndex else { return [] }
        let start = Date(timeIntervalSince1970: Double(openIndex) * length)
        let end = start.addingTimeInterval(length)
        let sightings = open.compactMap { identity, window in window.sighting(of: identity, from: start, to: end) }
            .sorted { ($0.medianRSSI, $0.identity.key) > ($1.medianRSSI, $1.identity.key) }
        self.openIndex = nil
        closedIndex = openIndex
        open = [:]
        return sightings
    }

    private func windowIndex(of time: Date) -> Int64 {
        Int64((time.timeIntervalSince1970 / length).rounded(.down))
    }
}
