import Foundation
import Harness
import Positioning
import ScanContract
import Testing

/// The whole track path with real processes: three `scannerd track` processes on the simulated
/// radio, fixed around a room of the demo floor, hear a tag walking it (the same tag in every
/// process: its path follows the wall clock from a start the test gives them all) and post their
/// windows to switchd over loopback HTTP; switchd's tag positions stay within the simulation's
/// bound over the whole walk, there and back, and the tag, marked missing, raises its event (a
/// tag event and a presence event) with the first window any scanner sent.
@Suite("End to end: scannerd track to switchd tag positions", .serialized)
struct TrackThroughScannerdTests {
    /// Mean error the positions stay within, metres: the demo tag's 2 dB of shadowing, three
    /// scanners around a 12 m × 10 m room, 1 s windows of 5 advertisements, a slow walk.
    static let bound = 1.5
    static let walk = Trajectory.walking([PlanPoint(x: 2, y: 2), PlanPoint(x: 10, y: 2), PlanPoint(x: 10, y: 7), PlanPoint(x: 3, y: 7)], metresPerSecond: 0.5)
    static let spots = [PlanPoint(x: 0, y: 0), PlanPoint(x: 12, y: 0), PlanPoint(x: 6, y: 10)]
    /// Seconds from the test's start to the tag's: the processes start meanwhile, and the tag,
    /// switched on then, is heard on the same grid of times with the same noise by every run,
    /// so every run scores the same readings of the same walk, however loaded the machine.
    /// (Walked from 1970 and drawn in whatever order the process started, each run scored a
    /// different stretch, with a reversal or without, and different noise.)
    static let lead: TimeInterval = 10
    /// The walk there and back (20 m each way at 0.5 m/s), both corners twice and both
    /// reversals: one position a window, switchd locating the tag once per window.
    static let scoredSeconds: TimeInterval = 80

    @Test func threeTrackingScannersLocateAWalkingTagAndItsMissingEventIsRaised() async throws {
        let site = try await TrackingSite.start("e2e-track", locationAt: 6, 5)
        defer { site.stop() }
        let (api, switchd, floor, room) = (site.api, site.switchd, site.floor, site.room)
        // The simulation is flat: antennas at the tag's height, the exponent it uses.
        for (index, spot) in Self.spots.enumerated() {
            try await site.placeScanner("fixed-\(index)", at: spot.x, spot.y)
        }
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + Self.lead).rounded(.up))
        let simulated = SimulatedFloor.MovingTag.demo(walking: Self.walk, from: start)
        let identity = TagIdentity.iBeacon(simulated.ble.beacon)
        let tag = try await site.registerTag(NewTag(name: "Bike", identity: identity, txPower: simulated.ble.txPower, missing: true, height: 1))
        let stream = EventStreamClient(url: switchd.baseURL.appendingPathComponent("v1/tags/\(tag.id)/positions/stream"), token: switchd.adminToken)
        defer { stream.close() }

        var scanners: [TrackingScanner] = []
        for (index, spot) in Self.spots.enumerated() {
            scanners.append(try await TrackingScanner.start(
                in: site.folder, switchd: switchd, scannerID: "fixed-\(index)", standing: spot.x, spot.y,
                arguments: ["--sim-tag", Self.walkText, "--sim-tag-start", "\(start.timeIntervalSince1970)", "--sim-seed", "\(index + 1)"]
            ))
        }
        defer { for scanner in scanners { scanner.process.signal(SIGKILL) } }

        let end = start.addingTimeInterval(Self.scoredSeconds)
        let events = try await stream.waitForEvents(timeout: .seconds(Self.lead + Self.scoredSeconds + 60), described: "a position at the walk's end") { events in
            events.contains { event in (try? JSONCoding.decoder().decode(TagPosition.self, from: Data(event.data.utf8)))?.time ?? .distantPast >= end }
        }
        let positions = try events.filter { $0.event == "tagPosition" }
            .map { try JSONCoding.decoder().decode(TagPosition.self, from: Data($0.data.utf8)) }
        // switchd locates the tag once per window, from every scanner's post of it. Scored where
        // all three heard it, against where the tag was in the middle of the window.
        #expect(Set(positions.map(\.time)).count == positions.count, "one position per window")
        let windows = positions.filter { $0.time > start && $0.time <= end }
        #expect(windows.count == Int(Self.scoredSeconds), "every window of the walk located")
        let errors = windows.filter { $0.scannersHeard == 3 }.map { position in
            let truth = simulated.position(at: position.time.addingTimeInterval(-0.5))
            return PlanPoint(x: position.x, y: position.y).distance(to: truth)
        }
        let mean = errors.reduce(0, +) / Double(max(errors.count, 1))
        print("scannerd track → switchd: mean error \(mean) m over \(errors.count) of \(windows.count) windows")
        #expect(errors.count == windows.count, "\(errors.count) of \(windows.count) windows heard by all three")
        #expect(mean <= Self.bound, "mean error \(mean) m over \(errors.count) windows")
        #expect(positions.allSatisfy { $0.floorID == floor.id && $0.roomID == room.id })

        let sightings = try await api.call("GET", "/v1/tags/\(tag.id)/sightings?limit=500", as: [StoredSighting].self)
        Self.diagnose(sightings, positions: windows)
        #expect(Set(sightings.map(\.scannerID)) == Set(try (0..<3).map { try ScannerID("fixed-\($0)") }))
        let firstHeard = try #require(sightings.map(\.windowEnd).min())
        // The tag's own events also hold its presence (entered floor and room) once derived.
        let tagEvents = try await api.call("GET", "/v1/tags/\(tag.id)/events", as: Page<PresenceEvent>.self).items
            .filter { $0.kind == .missingTagHeard }
        #expect(tagEvents.map(\.kind) == [.missingTagHeard], "one missing-tag event, at the first window heard")
        #expect(tagEvents.first?.time == firstHeard)
        // The same event reaches integrators as a presence event (webhooks and MQTT relay these).
        let presence = try await api.call("GET", "/v1/events?kind=missingTagHeard", as: Page<PresenceEvent>.self).items
        #expect(presence.map(\.tagID) == [tag.id] && presence.first?.time == firstHeard && presence.first?.floor == floor.id)
        #expect(presence.first?.scannerID == tagEvents.first?.scannerID)

        for scanner in scanners {
            #expect(await scanner.process.terminate() == 0, "scannerd track stops cleanly; stderr:\n\(scanner.process.stderrTail(8))")
        }
    }

    /// Prints how each scored window was fed: windows a scanner posted after switchd had moved on
    /// to a later one (so the window was located without them), and how many advertisements
    /// each scanner's window counted.
    static func diagnose(_ sightings: [StoredSighting], positions: [TagPosition]) {
        var newest = Date.distantPast
        var late = 0
        let scored = Set(positions.map(\.time))
        for sighting in sightings.sorted(by: { $0.id < $1.id }) {
            if sighting.windowEnd < newest, scored.contains(sighting.windowEnd) { late += 1 }
            newest = max(newest, sighting.windowEnd)
        }
        let counts = Dictionary(grouping: sightings.filter { scored.contains($0.windowEnd) }, by: \.count).mapValues(\.count)
        print("scannerd track → switchd: \(late) scored windows posted late; advertisements per window: \(counts.sorted { $0.key < $1.key })")
    }

    static var walkText: String {
        guard case .walking(let points, let speed) = walk else { return "" }
        return points.map { "\($0.x),\($0.y)" }.joined(separator: ";") + "@\(speed)"
    }
}
