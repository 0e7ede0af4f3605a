import Foundation
import Positioning
import ScanContract
import SwitchdStore

/// Turns stored sightings into tag positions: for a tag heard at `time`, what each fixed scanner
/// heard in its latest window within ``Settings/horizon`` before then goes through
/// ``FixedScannerLocator`` (multilateration fused with the fingerprints of the registered beacons
/// the scanners heard, their accuracy radii scaled as ``TagAccuracyScales`` measured on those
/// beacons; kept here, rebuilt at once when a beacon or a placement changes, and at most every
/// ``Settings/fingerprintRefresh`` seconds of sighting time for new windows of known beacons and
/// the receive offsets estimated from them), then the tag's ``TagTrack`` (its ``PositionKalmanFilter``
/// and ``RoomSmoother``), which is stored, one per tag, and stepped in the transaction that
/// stores the window's position: every instance of a cluster smooths a tag's windows with the
/// one track, in the order they are stored, and a restart goes on with it (within the filter's
/// gap; a longer silence starts the filter afresh anyway).
///
/// ``TagWindowCloser`` calls it once per window, once every scanner reported it. Should two
/// estimates still come within ``Settings/sameInstant`` of each other (windows that short), the
/// later replaces the earlier in the filter instead of being counted as a second measurement.
/// A window located more than that before the track's last (closed late, on another instance)
/// is stored as ``TagTrack/step(_:at:sameInstant:nearestRoom:)`` says, without moving the track.
actor TagTracker {
    struct Settings: Sendable {
        /// How far back from the newest window a scanner's window still counts, seconds.
        var horizon: Double = 2.5
        /// Estimates this close in time (seconds) are of one instant: the later revises the earlier.
        var sameInstant: Double = 0.25
        var multilateration = TagMultilateration.Settings()
        /// k = 3 (second selection), the strongest reading of each window and the Kalman filter's
        /// acceleration noise 0.1 m/s² (third selection): chosen by cross-validation inside the
        /// fixed-receiver datasets' training parts (`floorscan-evaluate tags-select`, docs/tags.md).
        /// The fourth selection's 0.05 m/s² is not used: it lags where a walking tag reverses, and
        /// the end-to-end walk (TrackThroughScannerdTests) then misses its 1.5 m bound (1.84 m).
        var fingerprint = TagFingerprint.Settings(k: 3)
        var smoothing = PositionKalmanFilter.Settings(accelerationNoise: 0.1)
        /// Which figure of a sighting stands for its window: in the tag's hearings, the
        /// fingerprint map and the receive-offset estimate alike. Where it is compared with a
        /// declared power (multilateration, the offset estimate), its mean gap above the median is
        /// taken off first (``TagRSSIStatistic/meanAboveMedian(_:)``), so a declared power and
        /// an estimated offset keep their physical meaning.
        var rssiStatistic = TagRSSIStatistic.trackerDefault
        /// Seconds of sighting time (the windows' ends) the fingerprint map stays in use while only
        /// new windows of registered beacons and the offsets estimated from them changed. Listening
        /// scanners report their building's beacons every window, and a rebuild reads every stored
        /// beacon window (about half a second per hour of four scanners hearing four beacons, in a
        /// debug build), so it is not done on every batch.
        var fingerprintRefresh: Double = 60
    }

    let database: AppDatabase
    let settings: Settings
    /// The fingerprint map, its accuracy scales, the beacon table and placements they were built
    /// from, and the sighting time they were built at.
    private var fingerprints: (map: TagFingerprint, scales: TagAccuracyScales, beacons: BeaconTableSignature, placements: [ScannerPlacement], builtAt: Date)?
    /// Registered beacons were heard since the map was built: it lacks their new windows.
    private var beaconsHeardSince = false
    /// How many times the fingerprint map was built (tests read it).
    private(set) var fingerprintBuilds = 0

    init(database: AppDatabase, settings: Settings = Settings()) {
        self.database = database
        self.settings = settings
    }

    /// Computes, stores and returns the tag's position at `time`, from the sightings stored up
    /// to ID `storedUpTo` and every sighting of the window ending at `time` (all when nil: posts
    /// of one window reaching other instances, or stored before their post reached the closer,
    /// count too); nil when no fixed scanner heard it within the horizon. When the tag already
    /// has a position at `time` (another instance closed the window first), that one is
    /// returned, and this estimate is dropped: the tag's stored track took that one.
    ///
    /// - Throws: what the store throws (``StoreError/notFound(_:)`` when the tag was deleted).
    func locate(_ tagID: Int64, at time: Date, storedUpTo: Int64? = nil) async throws -> TagPosition? {
        let (tag, hearings, readUpTo) = try await database.hearings(
            of: tagID, from: time.addingTimeInterval(-settings.horizon), until: time, storedUpTo: storedUpTo, reading: settings.rssiStatistic
        )
        var multilateration = settings.multilateration
        multilateration.tagHeight = tag.height
        let (map, scales) = try await fingerprintMap(at: time)
        let method = FixedScannerLocator(multilateration: TagMultilateration(settings: multilateration), fingerprint: map, scales: scales)
        // The tag's txPower is declared as a typical (median) reading: range with the statistic
        // less its mean gap above the median over the tag's recent windows, among the sightings
        // the hearings were read from (this window's, whichever instance stored them, included).
        let gap = try await database.readingAboveMedian(settings.rssiStatistic, of: .tag(tagID, storedUpTo: readUpTo))
        guard let raw = method.locate(hearings, txPower: Double(tag.txPower), readingAboveDeclared: gap), let floorID = raw.floorID else { return nil }
        let (smoothing, sameInstant) = (settings.smoothing, settings.sameInstant)
        let methodName = "\(raw.method)+\(PositionKalmanFilter.methodName)"
        let scannersHeard = hearings.count
        return try await database.storeTagPosition(of: tagID, at: time, onFloor: floorID) { stored, nearestRoom in
            var track = stored.map { TagTrack(state: $0, smoothing: smoothing) } ?? TagTrack(smoothing: smoothing)
            let (smoothed, room) = try track.step(raw, at: time.timeIntervalSince1970, sameInstant: sameInstant) { try nearestRoom($0.x, $0.y) }
            let position = TagPosition(
                id: 0, tagID: tagID, time: time, floorID: floorID, x: smoothed.x, y: smoothed.y, roomID: room,
                accuracyMetres: smoothed.accuracyMetres, method: methodName, scannersHeard: scannersHeard
            )
            return (position, track.state)
        }
    }

    /// The fingerprint map and the accuracy scales measured on it, for sightings at `time`:
    /// rebuilt from the store at once when the beacon table or a placement (but for its estimated
    /// offset) changed, and when beacons were heard or offsets re-estimated since, once `time` is
    /// ``Settings/fingerprintRefresh`` from the build (either way: a replay may go back in time).
    private func fingerprintMap(at time: Date) async throws -> (TagFingerprint, TagAccuracyScales) {
        let beacons = try await database.beaconTableSignature()
        let placements = try await database.placements()
        if let fingerprints, fingerprints.beacons == beacons, fingerprints.placements.map(Self.placed) == placements.map(Self.placed) {
            let newer = beaconsHeardSince || fingerprints.placements != placements
            if !newer || abs(time.timeIntervalSince(fingerprints.builtAt)) < settings.fingerprintRefresh {
                return (fingerprints.map, fingerprints.scales)
            }
        }
        fingerprintBuilds += 1
        beaconsHeardSince = false
        let points = try await database.tagReferencePoints(reading: settings.rssiStatistic)
        let map = TagFingerprint(points: points, settings: settings.fingerprint)
        var hearings: [String: FixedScannerHearing] = [:]
        for p in placements {
            hearings[p.scannerID.rawValue] = FixedScannerHearing(
                scanner: p.scannerID.rawValue, floorID: p.floorID, x: p.x, y: p.y, height: p.height, receiveOffset: p.receiveOffset,
                pathLossExponent: p.pathLossExponent, rssi: 0
            )
        }
        let scales = TagAccuracyScales(
            points: points, placements: hearings, multilateration: TagMultilateration(settings: settings.multilateration), fingerprint: map,
            readingAboveDeclared: try await database.readingAboveMedian(settings.rssiStatistic, of: .beacons)
        )
        fingerprints = (map, scales, beacons, placements, time)
        return (map, scales)
    }

    /// A placement as the admin set it: without the offset estimated from sightings.
    private static func placed(_ placement: ScannerPlacement) -> ScannerPlacement {
        ScannerPlacement(
            scannerID: placement.scannerID, floorID: placement.floorID, x: placement.x, y: placement.y, height: placement.height,
            pathLossExponent: placement.pathLossExponent, receiveOffsetOverride: placement.receiveOffsetOverride,
            estimatedReceiveOffset: nil, calibrationSamples: 0
        )
    }

    /// Registered beacons were heard: the fingerprint map lacks their new windows (rebuilt as
    /// ``fingerprintMap(at:)`` says).
    func beaconsHeard() {
        beaconsHeardSince = true
    }
}
