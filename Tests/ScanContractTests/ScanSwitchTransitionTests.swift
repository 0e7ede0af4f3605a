import Foundation
@testable import ScanContract
import Testing

@Suite("Scan switch state machine")
struct ScanSwitchTransitionTests {
    let t0 = Date(timeIntervalSince1970: 1_795_330_200)
    var off: ScanSwitch { .initial(for: .default, at: t0) }

    func survey(at location: Int64 = 7, stopAfter: StopCondition? = nil) throws -> ScanSwitch {
        try off.applying(SwitchPatch(scanning: true, mode: .survey, roomID: .set(3), locationID: .set(location), stopAfter: .set(stopAfter)), at: t0)
    }

    @Test func startsOffAtRevisionOne() {
        #expect(off.revision == 1)
        #expect(!off.scanning)
        #expect(off.stoppedBy == nil)
    }

    @Test func turningOnASurveyBumpsTheRevisionAndStores() throws {
        let on = try survey()
        #expect(on.revision == 2)
        #expect(on.scanning && on.mode == .survey && on.storeData)
        #expect(on.locationID == 7 && on.roomID == 3)
        #expect(on.keepsReadings)
    }

    @Test func theSamePatchTwiceKeepsTheRevision() throws {
        let on = try survey()
        let again = try on.applying(SwitchPatch(scanning: true, mode: .survey, locationID: .set(7)), at: t0.addingTimeInterval(5))
        #expect(again == on)
    }

    @Test func aSurveyWithoutALocationIsRefused() {
        #expect(throws: ValidationError(field: "locationID", reason: "a survey needs the location being surveyed")) {
            try off.applying(SwitchPatch(scanning: true, mode: .survey), at: t0)
        }
    }

    @Test func aSurveyThatDoesNotStoreIsRefused() {
        #expect(throws: ValidationError.self) {
            try off.applying(SwitchPatch(scanning: true, mode: .survey, locationID: .set(1), storeData: false), at: t0)
        }
    }

    @Test func leavingSurveyForLocateStopsStoringUnlessAsked() throws {
        let on = try survey()
        let locate = try on.applying(SwitchPatch(mode: .locate, roomID: .set(nil), locationID: .set(nil)), at: t0)
        #expect(locate.mode == .locate && !locate.storeData && locate.revision == 3)
        #expect(locate.locationID == nil)
        let keeping = try on.applying(SwitchPatch(mode: .locate, storeData: true), at: t0)
        #expect(keeping.storeData && keeping.keepsReadings)
    }

    @Test func turningOffSaysWho() throws {
        let stopped = try survey().applying(SwitchPatch(scanning: false), at: t0)
        #expect(!stopped.scanning && stopped.stoppedBy == .turnedOff && stopped.revision == 3)
    }

    @Test(arguments: [StopCondition.scans(0), .scans(100_001), .seconds(0), .seconds(-1), .seconds(90_000)])
    func badStopConditionsAreRefused(condition: StopCondition) {
        #expect(throws: ValidationError.self) { try survey(stopAfter: condition) }
    }

    @Test func aScanCountStopTurnsOffAtTheNthScan() throws {
        var state = try survey(stopAfter: .scans(3))
        let revision = state.revision
        state = state.recordingScan(0, ofRevision: revision, at: t0)
        state = state.recordingScan(1, ofRevision: revision, at: t0)
        #expect(state.scanning && state.scansCompleted == 2 && state.revision == revision)
        // Readings of an older revision do not count.
        #expect(state.recordingScan(9, ofRevision: revision - 1, at: t0) == state)
        // An earlier scan index arriving late does not move progress back.
        #expect(state.recordingScan(0, ofRevision: revision, at: t0) == state)
        state = state.recordingScan(2, ofRevision: revision, at: t0.addingTimeInterval(1))
        #expect(!state.scanning && state.stoppedBy == .stopCondition)
        #expect(state.revision == revision + 1 && state.scansCompleted == 3)
        #expect(state.changedAt == t0.addingTimeInterval(1))
    }

    @Test func aTimeStopTurnsOffAtItsDeadline() throws {
        let on = try survey(stopAfter: .seconds(30))
        #expect(on.deadline == t0.addingTimeInterval(30))
        #expect(on.expiring(at: t0.addingTimeInterval(29.9)) == on)
        let expired = on.expiring(at: t0.addingTimeInterval(30))
        #expect(!expired.scanning && expired.stoppedBy == .stopCondition && expired.revision == on.revision + 1)
        #expect(expired.deadline == nil)
    }

    @Test func movingToAnotherLocationRestartsProgress() throws {
        var state = try survey(stopAfter: .scans(5))
        state = state.recordingScan(1, ofRevision: state.revision, at: t0)
        let moved = try state.applying(SwitchPatch(locationID: .set(8)), at: t0.addingTimeInterval(2))
        #expect(moved.scansCompleted == 0 && moved.revision == state.revision + 1 && moved.changedAt == t0.addingTimeInterval(2))
    }

    @Test func patchJSONTellsNullFromAbsent() throws {
        let decoder = JSONCoding.decoder()
        let cleared = try decoder.decode(SwitchPatch.self, from: Data(#"{"roomID":null,"stopAfter":{"scans":4}}"#.utf8))
        #expect(cleared.roomID == .set(nil))
        #expect(cleared.locationID == .unchanged)
        #expect(cleared.stopAfter == .set(.scans(4)))
        let roundTrip = try decoder.decode(SwitchPatch.self, from: JSONCoding.encoder().encode(cleared))
        #expect(roundTrip == cleared)
        #expect(throws: DecodingError.self) {
            try decoder.decode(SwitchPatch.self, from: Data(#"{"stopAfter":{"scans":4,"seconds":3}}"#.utf8))
        }
    }

    @Test func seedFieldsMapOntoTheSwitch() throws {
        let patch = SeedSwitchPatch(shouldScan: true, roomID: 3, locationID: 7, storeData: true).switchPatch
        let on = try off.applying(patch, at: t0)
        #expect(on.scanning && on.mode == .survey && on.locationID == 7)
        let seed = SeedScanSwitch(on)
        #expect(seed.shouldScan && seed.storeData && seed.roomID == 3 && seed.id == 1)
        let positioning = try on.applying(SeedSwitchPatch(storeData: false).switchPatch, at: t0)
        #expect(positioning.mode == .locate && !positioning.storeData)
        let cleared = try positioning.applying(SeedSwitchPatch(roomID: 0, locationID: 0).switchPatch, at: t0)
        #expect(cleared.roomID == nil && cleared.locationID == nil)
    }
}
