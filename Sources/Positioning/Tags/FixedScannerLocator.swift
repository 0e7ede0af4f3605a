import Foundation

/// Locates a tag from what the fixed scanners heard of it by both methods a fixed topology has:
/// ``TagMultilateration`` on the log-distance model and, where reference points were heard,
/// ``TagFingerprint``; the two estimates are fused by ``PositionFusion`` (inverse-variance
/// weights from their accuracy radii; the fingerprint's floor wins).
public struct FixedScannerLocator: Sendable {
    public var multilateration: TagMultilateration
    public var fingerprint: TagFingerprint

    public init(multilateration: TagMultilateration, fingerprint: TagFingerprint) {
        self.multilateration = multilateration
        self.fingerprint = fingerprint
    }

    /// The tag's position (named by the one method that placed it, or `fused`), its power at 1 m being `txPower` dBm; nil when neither method places
    /// it (no hearing with a finite RSSI below 0 dBm). The fingerprint reads the raw RSSI, not
    /// the offset-corrected one: its map was heard by the same receivers.
    public func locate(_ hearings: [FixedScannerHearing], txPower: Double) -> PositionEstimate? {
        let multilaterated = multilateration.locate(hearings, txPower: txPower)
        var losses: [String: Double] = [:]
        for hearing in hearings where hearing.rssi.isFinite && hearing.rssi < 0 {
            losses[hearing.scanner] = txPower - hearing.rssi
        }
        guard let fingerprinted = fingerprint.locate(losses) else { return multilaterated }
        guard let multilaterated else { return fingerprinted }
        return PositionFusion(floorAuthorities: [TagFingerprint.methodName]).fuse([multilaterated, fingerprinted])
    }
}
