#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// Locates a tag from what several fixed scanners heard of it: the scanners play the anchors of
/// ``BLETrilateration`` (weighted least squares on the log-distance model), each with the tag's
/// power at 1 m, its own exponent and its RSSI corrected by its receive offset. The floor is the
/// one most scanners heard the tag on (the strongest decides a tie); with fewer than
/// `minimumScanners` there the tag is put at the strongest scanner, with an accuracy radius of
/// about its range.
public struct TagMultilateration: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Height the tag is carried at above the floor, metres.
        public var tagHeight: Double
        /// Spread of RSSI around the model, dB: weights the scanners and sizes the accuracy.
        public var shadowingSigma: Double
        /// Fewest scanners on the floor that multilateration runs with.
        public var minimumScanners: Int
        /// As ``BLETrilateration/Settings``.
        public var priorSpread: Double
        public var margin: Double
        /// With more than `minimumScanners` on the floor, locate again without the scanner whose
        /// RSSI is farthest from the model's at the first estimate (one obstructed or reflected
        /// receiver should not drag the tag).
        public var dropsWorstScanner: Bool

        public init(
            tagHeight: Double = 1.0, shadowingSigma: Double = 4.5, minimumScanners: Int = 3, priorSpread: Double = 10, margin: Double = 1,
            dropsWorstScanner: Bool = false
        ) {
            self.tagHeight = tagHeight
            self.shadowingSigma = shadowingSigma
            self.minimumScanners = minimumScanners
            self.priorSpread = priorSpread
            self.margin = margin
            self.dropsWorstScanner = dropsWorstScanner
        }
    }

    public static let methodName = "tag-multilateration"
    public static let strongestScannerMethodName = "strongest-scanner"
    public var settings: Settings

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The tag's position from `hearings` (one per scanner), its power at 1 m being `txPower`
    /// dBm; nil when no hearing has a finite RSSI below 0 dBm. The estimate always has a floor.
    public func locate(_ hearings: [FixedScannerHearing], txPower: Double) -> PositionEstimate? {
        let heard = hearings.filter { $0.rssi.isFinite && $0.rssi < 0 && $0.receiveOffset.isFinite }
        guard let floorID = Self.floor(of: heard) else { return nil }
        let onFloor = heard.filter { $0.floorID == floorID }
        let trilateration = BLETrilateration(settings: .init(
            height: settings.tagHeight, priorSpread: settings.priorSpread, margin: settings.margin
        ))
        let readings = onFloor.enumerated().map { index, hearing in
            AnchorReading(anchor: anchor(hearing, index: index, txPower: txPower), rssi: hearing.correctedRSSI)
        }
        if onFloor.count >= settings.minimumScanners, var estimate = trilateration.locate(readings) {
            if settings.dropsWorstScanner, readings.count > settings.minimumScanners,
               let worst = readings.indices.max(by: { residual(readings[$0], at: estimate) < residual(readings[$1], at: estimate) }) {
                var kept = readings
                kept.remove(at: worst)
                estimate = trilateration.locate(kept) ?? estimate
            }
            estimate.method = Self.methodName
            return estimate
        }
        guard let strongest = readings.max(by: { $0.rssi < $1.rssi }), var estimate = trilateration.locate([strongest]) else { return nil }
        estimate.method = Self.strongestScannerMethodName
        return estimate
    }

    /// The floor most scanners heard the tag on; of floors heard by as many, the strongest
    /// (offset-corrected) hearing's.
    static func floor(of hearings: [FixedScannerHearing]) -> Int64? {
        let byFloor = Dictionary(grouping: hearings, by: \.floorID)
        return byFloor.max { a, b in
            if a.value.count != b.value.count { return a.value.count < b.value.count }
            return (a.value.map(\.correctedRSSI).max() ?? -.infinity) < (b.value.map(\.correctedRSSI).max() ?? -.infinity)
        }?.key
    }

    /// How far, dB, a reading lies from the model's RSSI at `estimate` (the tag at its height).
    private func residual(_ reading: AnchorReading, at estimate: PositionEstimate) -> Double {
        let a = reading.anchor
        let dz = a.z - settings.tagHeight
        let distance = ((a.x - estimate.x) * (a.x - estimate.x) + (a.y - estimate.y) * (a.y - estimate.y) + dz * dz).squareRoot()
        return abs(reading.rssi - a.model.meanRSSI(atDistance: distance))
    }

    /// A scanner as a ranging anchor. Anchors are named by emitter; a scanner has none, so its
    /// index in the call stands in (positioning reads only the position and the model).
    private func anchor(_ hearing: FixedScannerHearing, index: Int, txPower: Double) -> RangingAnchor {
        RangingAnchor(
            emitter: .accessPoint(MACAddress(rawValue: UInt64(index))), floorID: hearing.floorID,
            x: hearing.x, y: hearing.y, z: hearing.height,
            model: PathLossModel(powerAt1m: txPower, exponent: hearing.pathLossExponent, shadowingSigma: settings.shadowingSigma)
        )
    }
}
