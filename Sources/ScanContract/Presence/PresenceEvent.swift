#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What happened to a scanner's or a tag's presence (the v1 `kind` field of a ``PresenceEvent``).
///
/// - `entered`, `left`: the scanner's or tag's room or floor (``PresenceEvent/place``) changed,
///   once it had stayed in the new place for the minimum dwell.
/// - `away`: the scanner or tag was not located for the configured time.
/// - `back`: the first position after `away`.
/// - `missingTagHeard`: a fixed scanner heard a tag marked missing (``PresenceEvent/tagID``), the
///   first time since it was marked; the scanner is the one that heard it.
/// - `scannerOffline`: switchd heard nothing from a scanner (no counter report) for
///   `--scanner-offline-after`; `scannerOnline`: the first report after that.
/// - `batteryLow`: a tag's or beacon's Eddystone-TLM battery voltage fell below
///   `--battery-low-millivolts`; once per crossing (docs/fleet-health.md).
/// - `beaconSilent`: no scanner that used to hear a registered beacon heard it for
///   `--beacon-silent-after`, while they went on hearing others.
/// - `beaconFaded`: the scanners that hear a registered beacon hear it weaker, by the median of
///   their medians, than over the window before, by more than `--beacon-fade-db`.
/// - `beaconNewScanner`: a placed scanner heard a registered beacon it had not heard for
///   `--beacon-new-after` while it reported sightings all that time (the beacon moved, or what
///   stood between them did); carries the scanner and the beacon.
public enum PresenceEventKind: String, Codable, CaseIterable, Hashable, Sendable {
    case entered
    case left
    case away
    case back
    case missingTagHeard
    case scannerOffline
    case scannerOnline
    case batteryLow
    case beaconSilent
    case beaconFaded
    case beaconNewScanner
}

/// Which kind of place an `entered` or `left` event is about.
public enum PresencePlace: String, Codable, CaseIterable, Hashable, Sendable {
    case room
    case floor
}

/// A stored presence event (`GET /v1/events`, `/v1/events/stream`, `GET /v1/tags/{id}/events`,
/// webhooks, MQTT): what happened, to which scanner or tag, where and when. `id` is the event's
/// sequence number, the order in which switchd derived it.
///
/// A scanner's events carry its `scannerID` and no `tagID`; a tag's `entered`, `left`, `away`
/// and `back` carry its `tagID` and no `scannerID`; `missingTagHeard` carries both;
/// `batteryLow` carries its `tagID` or its `beaconID` and nothing else of the kind;
/// `beaconNewScanner` carries the `scannerID` that heard the beacon and its `beaconID`.
public struct PresenceEvent: Codable, Hashable, Sendable {
    public var id: Int64
    /// The scanner the event is about, or the one that heard a missing tag; absent for a tag's
    /// presence events.
    public var scannerID: ScannerID?
    public var kind: PresenceEventKind
    /// `room` or `floor` for `entered` and `left`; absent for `away` and `back`.
    public var place: PresencePlace?
    /// The floor entered or left, or the floor of the room; for `back`, the floor of the
    /// position heard; for `missingTagHeard`, the floor the scanner is placed on; absent for
    /// `away`, and when a room is entered or left on an unknown floor.
    public var floor: Int64?
    /// The room entered or left; absent for floor events, `away`, and `back` outside any room.
    public var roomID: Int64?
    /// For `entered`, `left` and `back`, the time of the position that settled it; for `away`,
    /// the time the silence reached the configured length (the last position's time plus it);
    /// for `missingTagHeard`, the end of the window the tag was heard in; for `scannerOffline`,
    /// the last report's time plus `--scanner-offline-after`; for `scannerOnline`, when the
    /// report that ended the silence arrived; for `batteryLow`, when the scanner heard the
    /// telemetry that crossed the threshold; for `beaconSilent`, the end of its last sighting
    /// plus `--beacon-silent-after`; for `beaconFaded`, the end of the sighting that showed it;
    /// for `beaconNewScanner`, the end of the scanner's first sighting of the beacon after the gap.
    public var time: Date
    /// The position that settled the event (a scanner's position, or for a tag's events the tag
    /// position, `GET /v1/tags/{id}/positions`); absent for `away` and for what `away` leaves.
    public var positionID: Int64?
    /// The tag the event is about: a tag's presence events and `missingTagHeard`; absent for a
    /// scanner's.
    public var tagID: Int64?
    /// The registered beacon the event is about (`batteryLow`, `beaconSilent`, `beaconFaded`,
    /// `beaconNewScanner`);
    /// absent for every other event.
    public var beaconID: Int64?

    public init(
        id: Int64, scannerID: ScannerID?, kind: PresenceEventKind, place: PresencePlace?, floor: Int64?, roomID: Int64?,
        time: Date, positionID: Int64?, tagID: Int64? = nil, beaconID: Int64? = nil
    ) {
        self.beaconID = beaconID
        self.id = id
        self.scannerID = scannerID
        self.kind = kind
        self.place = place
        self.floor = floor
        self.roomID = roomID
        self.time = time
        self.positionID = positionID
        self.tagID = tagID
    }

    /// The Standard Webhooks style `type` of the event: `presence.entered`, `presence.away`,
    /// `presence.missingTagHeard`, …
    public var type: String { "presence.\(kind.rawValue)" }
}
