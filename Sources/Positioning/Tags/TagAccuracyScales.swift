#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How much each method's accuracy radius understates its error, measured on the survey itself:
/// each sampled reference point's first window is located as if it were a tag (the fingerprint
/// without that point), and a method's scale is its root-mean-square error over its
/// root-mean-square radius. ``FixedScannerLocator`` multiplies the radii by these before fusing,
/// so the fusion weights, and the Kalman filter after it, follow the errors this survey shows.
public struct TagAccuracyScales: Hashable, Sendable {
    public var multilateration: Double
    public var fingerprint: Double
    /// Reference points both methods placed.
    public var samples: Int

    /// Fewest located reference points the scales are measured from; with fewer both are 1.
    public static let minimumSamples = 10
    /// Most reference points sampled (evenly spaced), to bound the work of a large survey.
    public static let maximumSamples = 200

    public init(multilateration: Double = 1, fingerprint: Double = 1, samples: Int = 0) {
        self.multilateration = multilateration
        self.fingerprint = fingerprint
        self.samples = samples
    }

    /// Measures the scales on `points`, the scanners being `placements` (scanner → its hearing
    /// with any RSSI; the point's path loss replaces it), multilateration run at each point's height. Scales of 1 when fewer than
    /// ``minimumSamples`` points are placed by both methods. `readingAboveDeclared` as
    /// ``FixedScannerLocator/locate(_:txPower:readingAboveDeclared:)`` says, for the points' windows.
    public init(
        points: [TagReferencePoint], placements: [String: FixedScannerHearing], multilateration: TagMultilateration, fingerprint: TagFingerprint,
        readingAboveDeclared: Double = 0
    ) {
        var errors: (multilateration: [Double], fingerprint: [Double]) = ([], [])
        var radii: (multilateration: [Double], fingerprint: [Double]) = ([], [])
        let step = max(points.count / Self.maximumSamples, 1)
        for index in stride(from: 0, to: points.count, by: step) {
            let point = points[index]
            guard let window = point.windows.first(where: { !$0.isEmpty }) else { continue }
            // Power 0 dBm at 1 m: RSSI = −path loss, so only the loss (and the gap) matters.
            let hearings = window.compactMap { scanner, loss in
                placements[scanner].map { placement in
                    var hearing = placement
                    hearing.rssi = -loss
                    return hearing
                }
            }
            var atHeight = multilateration
            atHeight.settings.tagHeight = point.height
            guard let m = atHeight.locate(hearings, txPower: readingAboveDeclared), let f = fingerprint.locate(window, excluding: index) else { continue }
            let error = { (e: PositionEstimate) in ((e.x - point.x) * (e.x - point.x) + (e.y - point.y) * (e.y - point.y)).squareRoot() }
            errors.multilateration.append(error(m))
            errors.fingerprint.append(error(f))
            radii.multilateration.append(m.accuracyMetres)
            radii.fingerprint.append(f.accuracyMetres)
        }
        guard errors.fingerprint.count >= Self.minimumSamples else {
            self.init()
            return
        }
        let rms = { (values: [Double]) in (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot() }
        self.init(
            multilateration: rms(errors.multilateration) / rms(radii.multilateration),
            fingerprint: rms(errors.fingerprint) / rms(radii.fingerprint), samples: errors.fingerprint.count
        )
    }
}
