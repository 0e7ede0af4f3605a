#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// What scannerd reports on its event log, one JSON line each. Tests and the benchmark read these
/// to follow the daemon from outside: switch flips, scan sessions, sealed and uploaded batches.
enum ScannerEvent: Sendable, Equatable {
    /// A switch revision arrived from switchd.
    case switchReceived(revision: Int, scanning: Bool, mode: ScanMode)
    /// A scan session has started: the radio is armed.
    case scanning(revision: Int)
    /// A locate scan cycle was positioned on the device (and queued for switchd).
    case positioned(revision: Int, position: NewPosition)
    /// A scan session has stopped.
    case idle(revision: Int)
    /// A batch is durably in `ready/`; `ids` are its measurements' IDs.
    case sealed(batchID: UUID, revision: Int, count: Int, ids: [UUID])
    /// switchd acknowledged a batch; its spooled copy is deleted.
    case acked(batchID: UUID, stored: Int, duplicate: Bool)
    /// switchd refused a batch for good; it is kept in `rejected/`.
    case rejected(batchID: UUID, status: Int)
    /// A real radio (`radio` is `ble` or `wifi`) went down or away; scannerd is reopening it.
    case radioLost(radio: String, device: String, error: String)
    /// A lost radio is scanning again, after `attempts` reopenings.
    case radioRecovered(radio: String, device: String, attempts: Int)
    /// The listening role posted a closed window's `count` sightings; switchd stored `stored`
    /// and ignored `ignored` (tags it does not know).
    case sightingsSent(count: Int, stored: Int, ignored: Int)
    /// Settings from switchd were applied (``LiveSettings``): the revision (nil: none from
    /// switchd, the local ones), every setting in effect, and those not applied with why.
    case settingsApplied(revision: Int?, settings: ScannerSettings, unapplied: [String: String])

    /// The `"event"` field.
    var name: String {
        switch self {
        case .switchReceived: "switch"
        case .scanning: "scanning"
        case .idle: "idle"
        case .positioned: "positioned"
        case .sealed: "sealed"
        case .acked: "acked"
        case .rejected: "rejected"
        case .radioLost: "radioLost"
        case .radioRecovered: "radioRecovered"
        case .sightingsSent: "sightings"
        case .settingsApplied: "settings"
        }
    }
}
