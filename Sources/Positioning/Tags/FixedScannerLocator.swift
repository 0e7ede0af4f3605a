#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Locates a tag from what the fixed scanners heard of it by both methods a fixed topology has:
/// ``TagMultilateration`` on the log-distance model and, where reference points were heard,
/// ``TagFingerprint``; the two estimates are fused by ``PositionFusion`` (inverse-variance
/// weights from their accuracy radii, each times its ``TagAccuracyScales``; the fingerprint's
/// floor wins).
public struct FixedScannerLocator: Sendable {
    public var multilateration: TagMultilateration
    public var fingerprint: TagFingerprint
    /// Multiply each method's accuracy radius before fusing (and so in the estimate returned).
    public var scales: TagAccuracyScales
    /// Multiplies multilateration's inverse-variance weight in the fusion (its scaled radius is
    /// divided by the square root); 0 leaves it out wherever the fingerprint places the tag.
    public var multilaterationWeight: Double

    public init(
        multilateration: TagMultilateration, fingerprint: TagFingerprint, scales: TagAccuracyScales = TagAccuracyScales(),
        multilaterationWeight: Double = 1
    ) {
        self.multilateration = multilateration
        self.fingerprint = fingerprint
        self.scales = scales
        self.multilaterationWeight = multilaterationWeight
    }

    /// The tag's position (named by the one method that placed it, or `fused`), its power at 1 m being `txPower` dBm; nil when neither method places
    /// it (no hearing with a finite RSSI below 0 dBm). The fingerprint reads the raw RSSI, not
    /// the offset-corrected one: its map was heard by the same receivers.
    ///
    /// `readingAboveDeclared` (dB) is how far the hearings' figure of a window lies above the
    /// figure `txPower` was declared in: a tag's power at 1 m is declared as a typical reading
    /// (iBeacon's measured power), so a window's strongest reading lies above it by about its
    /// mean gap over the median. Multilateration ranges against `txPower` raised by it, which is
    /// ranging with each reading lowered by it. The fingerprint does not: its map's path losses
    /// are the beacons' declared powers less the same figure of their windows, like with like.
    public func locate(_ hearings: [FixedScannerHearing], txPower: Double, readingAboveDeclared: Double = 0) -> PositionEstimate? {
        var multilaterated = multilateration.locate(hearings, txPower: txPower + readingAboveDeclared)
        multilaterated?.accuracyMetres *= scales.multilateration
        var losses: [String: Double] = [:]
        for hearing in hearings where hearing.rssi.isFinite && hearing.rssi < 0 {
            losses[hearing.scanner] = txPower - hearing.rssi
        }
        guard var fingerprinted = fingerprint.locate(losses) else { return multilaterated }
        fingerprinted.accuracyMetres *= scales.fingerprint
        guard var weighted = multilaterated, multilaterationWeight > 0 else { return fingerprinted }
        weighted.accuracyMetres /= multilaterationWeight.squareRoot()
        return PositionFusion(floorAuthorities: [TagFingerprint.methodName]).fuse([weighted, fingerprinted])
    }
}
