#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a scanner uploads: readings taken under one revision of its switch.
///
/// `batchID` is chosen once, when the batch is opened on the scanner's disk; a retry sends the same
/// ID, and switchd acknowledges a known ID without storing it again.
public struct MeasurementBatch: Codable, Hashable, Sendable {
    public var batchID: UUID
    public var scannerID: ScannerID
    /// The switch revision the readings were taken under; it says where (survey) or whether to
    /// keep them (locate).
    public var switchRevision: Int
    public var measurements: [Measurement]
    /// How many scan cycles of this revision the scanner had completed when it sealed the batch;
    /// every reading of those cycles is in this batch or an earlier one. switchd moves survey
    /// progress (and `{scans: N}` stops) by it. Left out, the highest `scan` index in the batch
    /// counts as completed.
    public var scansCompleted: Int?

    public init(batchID: UUID, scannerID: ScannerID, switchRevision: Int, measurements: [Measurement], scansCompleted: Int? = nil) {
        self.batchID = batchID
        self.scannerID = scannerID
        self.switchRevision = switchRevision
        self.measurements = measurements
        self.scansCompleted = scansCompleted
    }

    /// The scan cycles of the revision this batch says are complete: ``scansCompleted``, or one
    /// past the highest `scan` index of its readings.
    public var completedScans: Int {
        scansCompleted ?? ((measurements.map(\.scan).max() ?? -1) + 1)
    }

    public static let maxMeasurements = 10_000

    /// Checks the batch and every reading in it; the error names the field by its JSON path.
    public func validate() throws(ValidationError) {
        guard switchRevision >= 1 else {
            throw ValidationError(field: "switchRevision", reason: "must be 1 or more, got \(switchRevision)")
        }
        if let scansCompleted, !(0...StopCondition.maxScans).contains(scansCompleted) {
            throw ValidationError(field: "scansCompleted", reason: "must be between 0 and \(StopCondition.maxScans), got \(scansCompleted)")
        }
        guard !measurements.isEmpty else {
            throw ValidationError(field: "measurements", reason: "must hold at least one measurement")
        }
        guard measurements.count <= Self.maxMeasurements else {
            throw ValidationError(field: "measurements", reason: "must hold at most \(Self.maxMeasurements) measurements, got \(measurements.count)")
        }
        var seen = Set<UUID>(minimumCapacity: measurements.count)
        for (index, measurement) in measurements.enumerated() {
            do {
                try measurement.validate()
            } catch {
                throw ValidationError(field: "measurements[\(index)].\(error.field)", reason: error.reason)
            }
            guard seen.insert(measurement.id).inserted else {
                throw ValidationError(field: "measurements[\(index)].id", reason: "repeats the id of an earlier measurement in this batch")
            }
        }
    }
}

/// switchd's answer to an upload: the scanner may delete its spooled copy once it has this.
public struct BatchReceipt: Codable, Hashable, Sendable {
    public var batchID: UUID
    /// How many readings this request stored (0 for a replay, or a locate batch not kept).
    public var stored: Int
    /// True when the batch ID had been acknowledged before; nothing was stored again.
    public var duplicate: Bool
    /// True when the switch revision said not to keep the readings (locate mode, storeData off).
    public var discarded: Bool

    public init(batchID: UUID, stored: Int, duplicate: Bool, discarded: Bool) {
        self.batchID = batchID
        self.stored = stored
        self.duplicate = duplicate
        self.discarded = discarded
    }
}
