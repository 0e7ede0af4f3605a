import Foundation
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// ``PresenceRules`` on the recorded streams, without a server: what each position settles.
@Suite struct PresenceRulesTests {
    static let world = PresenceWorld(
        floor: Floor(id: 1, building: "main", name: "Ground", level: 0),
        hall: Room(id: 1, floorID: 1, name: "Hall"), office: Room(id: 2, floorID: 1, name: "Office")
    )

    /// Replays `stream` through `rules`; the events with the stream's positions as stored (IDs from 1).
    static func replay(_ stream: [RecordedPosition], _ rules: PresenceRules) -> [NewPresenceEvent] {
        var state: PresenceState?
        var events: [NewPresenceEvent] = []
        for (index, recorded) in stream.enumerated() {
            let (next, settled) = rules.step(state, PresenceObservation(Position(id: Int64(index + 1), world.new(recorded))))
            state = next
            events += settled
        }
        return events
    }

    @Test func aPositionWobblingAcrossTheWallDoesNotFlap() throws {
        let stream = try RecordedPosition.stream("doorway-wobble")
        let events = Self.replay(stream, PresenceRules(dwell: .seconds(5), awayAfter: .seconds(120)))
        let (hall, office, floor) = (Self.world.hall.id, Self.world.office.id, Self.world.floor.id)
        #expect(events.map(\.kind) == [.entered, .entered, .left, .entered])
        #expect(events.map(\.place) == [.floor, .room, .room, .room])
        #expect(events.map(\.roomID) == [nil, hall, hall, office])
        #expect(events.allSatisfy { $0.floor == floor })
        // Settled by the first position 5 s after the stream began, and by the first 5 s into the
        // office run that does not go back to the hall (it starts at position 37, t = 77.469).
        let start = Readings.start
        #expect(events[0].time == start.addingTimeInterval(6.363) && events[0].positionID == 4)
        #expect(events[2].time == start.addingTimeInterval(83.724) && events[2].positionID == 40)
        #expect(events[2].time == events[3].time)
        #expect(stream[36].t == 77.469 && stream[35].room == "hall")
    }

    @Test func withoutADwellTheSameStreamFlaps() throws {
        let events = Self.replay(try RecordedPosition.stream("doorway-wobble"), PresenceRules(dwell: .zero, awayAfter: .seconds(120)))
        #expect(events.filter { $0.kind == .entered && $0.place == .room }.count > 10, "the dwell is what keeps the wobble quiet")
    }

    @Test func aFloorChangeLeavesTheRoomAndFloorThenEntersTheNewOnes() {
        let rules = PresenceRules(dwell: .zero, awayAfter: .seconds(120))
        let first = Position(id: 1, Self.world.new(RecordedPosition(t: 0, room: "hall", x: 1, y: 1)))
        var upstairs = first
        upstairs.id = 2
        upstairs.floor = 9
        upstairs.roomID = 90
        upstairs.time = first.time.addingTimeInterval(2)
        let (state, _) = rules.step(nil, PresenceObservation(first))
        let (_, events) = rules.step(state, PresenceObservation(upstairs))
        #expect(events.map(\.kind) == [.left, .left, .entered, .entered])
        #expect(events.map(\.place) == [.room, .floor, .floor, .room])
        #expect(events.map(\.floor) == [1, 1, 9, 9])
        #expect(events.map(\.roomID) == [Self.world.hall.id, nil, nil, 90])
    }

    @Test func awayLeavesWhereTheScannerWasAndTheNextPositionIsBack() {
        let rules = PresenceRules(dwell: .zero, awayAfter: .seconds(90))
        let heard = Position(id: 1, Self.world.new(RecordedPosition(t: 10, room: "office", x: 7, y: 3)))
        let (state, _) = rules.step(nil, PresenceObservation(heard))
        let (away, events) = rules.away(state)
        #expect(events.map(\.kind) == [.left, .left, .away])
        #expect(events.allSatisfy { $0.time == heard.time.addingTimeInterval(90) })
        #expect(rules.away(away).1.isEmpty, "away once")
        var later = heard
        later.id = 2
        later.time = heard.time.addingTimeInterval(600)
        let (_, back) = rules.step(away, PresenceObservation(later))
        #expect(back.map(\.kind) == [.back, .entered, .entered])
        #expect(back.first?.roomID == Self.world.office.id)
    }
}
