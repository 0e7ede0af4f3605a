import Foundation
import Positioning

/// A dataset of fixed receivers and one carried tag, cut into what fixed scanners would send:
/// per window, each receiver's ``SightingWindow``, with where the tag truly was.
struct TagReplayScene {
    struct Receiver {
        var name: String
        var x: Double
        var y: Double
        var z: Double
    }

    /// One window of the part being scored.
    struct Window {
        /// Seconds since 1970 at the window's end.
        var end: Double
        var length: Double
        /// Receiver index → what it heard.
        var heard: [Int: SightingWindow]
        var truthX: Double
        var truthY: Double
    }

    /// A training point: the tag at a known position, heard over some windows (each a dictionary
    /// receiver index → what it heard). Replayed as a registered beacon there, it calibrates the
    /// receivers.
    struct CalibrationPoint {
        var x: Double
        var y: Double
        var z: Double
        var windows: [[Int: SightingWindow]]
    }

    var receivers: [Receiver]
    /// The tag's model, fitted on the training part (``TagModelFit``).
    var model: TagModelFit
    var calibration: [CalibrationPoint]
    var windows: [Window]
}
