import Foundation
import GRDB
import ScanContract

/// A `presence_state` row, read as a ``PresenceState``.
struct PresenceStateRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "presence_state"

    var scannerID: String
    var settled: Bool
    var floorID: Int64?
    var roomID: Int64?
    var candidateFloorID: Int64?
    var candidateRoomID: Int64?
    var candidateSinceMs: Int64?
    var away: Bool
    var lastPositionID: Int64
    var lastTimeMs: Int64

    enum CodingKeys: String, CodingKey {
        case scannerID = "scanner_id", settled, floorID = "floor_id", roomID = "room_id", candidateFloorID = "candidate_floor_id"
        case candidateRoomID = "candidate_room_id", candidateSinceMs = "candidate_since_ms", away
        case lastPositionID = "last_position_id", lastTimeMs = "last_time_ms"
    }

    init(_ state: PresenceState, scannerID: ScannerID) {
        self.scannerID = scannerID.rawValue
        settled = state.settled != nil
        floorID = state.settled?.floor
        roomID = state.settled?.roomID
        candidateFloorID = state.candidate?.floor
        candidateRoomID = state.candidate?.roomID
        candidateSinceMs = state.candidate == nil ? nil : state.candidateSince?.milliseconds
        away = state.away
        lastPositionID = state.lastPositionID
        lastTimeMs = state.lastTime.milliseconds
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` when a settled scanner has no floor.
    func state() throws -> PresenceState {
        var spot: PresenceSpot?
        if settled {
            guard let floorID else { throw StoreError.corruptRow("presence state of \(scannerID) is settled on no floor") }
            spot = PresenceSpot(floor: floorID, roomID: roomID)
        }
        let candidate = candidateFloorID.map { PresenceSpot(floor: $0, roomID: candidateRoomID) }
        return PresenceState(
            settled: spot, candidate: candidate, candidateSince: candidate == nil ? nil : candidateSinceMs.map(Date.init(milliseconds:)),
            away: away, lastPositionID: lastPositionID, lastTime: Date(milliseconds: lastTimeMs)
        )
    }
}
