#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One scanner's scan switch: whether it scans, what for, and where.
///
/// Every change makes a new `revision` (1, 2, 3, …). Scanners wait on the revision to learn of a
/// change, and tag their uploads with the revision they scanned under, so switchd knows which
/// location a reading belongs to even when the upload arrives after the switch has moved on.
public struct ScanSwitch: Codable, Hashable, Sendable {
    public var scannerID: ScannerID
    public var scanning: Bool
    public var mode: ScanMode
    public var roomID: Int64?
    public var locationID: Int64?
    public var storeData: Bool
    public var stopAfter: StopCondition?
    public var revision: Int
    public var changedAt: Date
    /// Scan cycles stored under this revision so far (survey progress). Not a change: it does not
    /// move the revision.
    public var scansCompleted: Int
    /// Set when the switch is off: who or what turned it off.
    public var stoppedBy: StopReason?
    /// The Wi-Fi readings the scanner keeps; nil keeps them all.
    public var allowList: ScanAllowList?
    /// The identities a scanner with the listening role forwards sightings of (``WatchedTags``):
    /// every registered tag's, then, for a placed scanner, those of the registered beacons of its
    /// building, nearest first (their sightings calibrate its receive offset). Filled in by
    /// switchd where a scanner reads its switch (`GET /v1/scanners/{id}/switch?watched=`), absent
    /// elsewhere. Not part of a revision: adding a tag or a beacon changes it without making one.
    /// Nil (a switchd that does not say): nothing is forwarded.
    public var watchedTags: [TagIdentity]?
    /// How many identities switchd left off ``watchedTags`` to keep the answer within
    /// ``answerLimit`` (the farthest beacons first, then the newest tags); nil when none was.
    public var watchedLeftOut: Int?
    /// The keys of the `irk` identities in ``watchedTags``: only in a listening scanner's answer
    /// (`?watched=`), the one place a key leaves switchd; absent elsewhere.
    public var watchedKeys: [WatchedKey]?
    /// The settings switchd asks of the scanner (the fleet's defaults overridden by its own,
    /// ``ScannerSettings``): in the answer of `GET /v1/scanners/{id}/switch`, absent when none are set. Not part of
    /// a revision: they have their own, ``settingsRevision``.
    public var settings: ScannerSettings?
    /// Raised by every change of the settings that apply to it; absent (or 0) before the first.
    public var settingsRevision: Int?

    /// The ``WatchedTags/digest(of:keyed:)`` of ``watchedTags`` (none: `[]`) and the identities
    /// whose key ``watchedKeys`` holds: what a listening scanner sends as `?watched=`, and what
    /// switchd compares it with.
    public var watchedDigest: String {
        WatchedTags.digest(of: watchedTags ?? [], keyed: Set(watchedKeys?.map(\.fingerprint) ?? []))
    }

    /// The most bytes of a switch answer a scanner reads; a longer answer is refused whole, so
    /// switchd shortens the watched list to fit (``WatchedTags/fitting(_:in:)``).
    public static let answerLimit = 64 * 1024

    public init(
        scannerID: ScannerID, scanning: Bool = false, mode: ScanMode = .locate, roomID: Int64? = nil,
        locationID: Int64? = nil, storeData: Bool = false, stopAfter: StopCondition? = nil,
        revision: Int = 1, changedAt: Date, scansCompleted: Int = 0, stoppedBy: StopReason? = nil, allowList: ScanAllowList? = nil,
        watchedTags: [TagIdentity]? = nil
    ) {
        self.allowList = allowList
        self.watchedTags = watchedTags
        self.scannerID = scannerID
        self.scanning = scanning
        self.mode = mode
        self.roomID = roomID
        self.locationID = locationID
        self.storeData = storeData
        self.stopAfter = stopAfter
        self.revision = revision
        self.changedAt = changedAt
        self.scansCompleted = scansCompleted
        self.stoppedBy = stoppedBy
    }

    /// A new scanner's switch: off, revision 1.
    public static func initial(for scannerID: ScannerID, at now: Date) -> ScanSwitch {
        ScanSwitch(scannerID: scannerID, changedAt: now)
    }

    /// Whether readings taken under this revision are to be kept.
    public var keepsReadings: Bool { mode == .survey || storeData }

    /// When a `{seconds: T}` switch that is on turns itself off.
    public var deadline: Date? {
        guard scanning, case .seconds(let seconds)? = stopAfter else { return nil }
        return changedAt.addingTimeInterval(seconds)
    }
}
