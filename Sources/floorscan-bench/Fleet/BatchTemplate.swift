import Foundation
import Harness
import Positioning
import ScanContract

/// One scanner's upload, encoded once with placeholder IDs and revision, then filled in per
/// upload by splicing text: the benchmark's own JSON encoding would otherwise take a core from
/// the switchd it measures.
struct BatchTemplate: Sendable {
    /// The text between the placeholders.
    private let pieces: [String]
    /// Per gap between pieces: a fresh batch or reading ID, the revision, or the scanner ID.
    private let slots: [Slot]
    /// Whether reading IDs are time-ordered, as scannerd makes them, or random (version 4), as
    /// scannerd made them before and as a client may still send them.
    private let timeOrderedIDs: Bool

    private enum Slot { case batchID, readingID, revision, scanner }

    private static let revisionPlaceholder = 987_654_321
    private static let scannerPlaceholder = "scanner-placeholder"

    /// Readings of `floor`'s access points and beacons, alternating; one template serves every
    /// scanner (its ID is filled in too).
    init(readings: Int, floor: SimulatedFloor, timeOrderedIDs: Bool = true) throws {
        let scannerID = try ScannerID(Self.scannerPlaceholder)
        let placeholders = (0...readings).map { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", $0 + 1))! }
        let now = Date()
        let measurements = (0..<readings).map { index -> Measurement in
            let rssi = -40 - (index * 7) % 50
            if index % 2 == 0 {
                let ap = floor.accessPoints[index / 2 % floor.accessPoints.count]
                return Measurement(id: placeholders[index + 1], time: now, rssi: rssi, scan: 0, observation: .wifi(ap.wifi))
            }
            let beacon = floor.beacons[index / 2 % floor.beacons.count]
            return Measurement(id: placeholders[index + 1], time: now, rssi: rssi, scan: 0, observation: .ble(beacon.ble))
        }
        let batch = MeasurementBatch(batchID: placeholders[0], scannerID: scannerID, switchRevision: Self.revisionPlaceholder, measurements: measurements)
        var text = String(decoding: try JSONCoding.encoder().encode(batch), as: UTF8.self)
        var pieces: [String] = []
        var slots: [Slot] = []
        // Cut at each placeholder in the order it appears.
        let marks = placeholders.enumerated().map { ($1.uuidString, $0 == 0 ? Slot.batchID : Slot.readingID) }
            + [(String(Self.revisionPlaceholder), Slot.revision), ("\"\(Self.scannerPlaceholder)\"", Slot.scanner)]
        while let (range, slot) = marks.compactMap({ mark -> (Range<String.Index>, Slot)? in
            text.range(of: mark.0, options: .caseInsensitive).map { ($0, mark.1) }
        }).min(by: { $0.0.lowerBound < $1.0.lowerBound }) {
            pieces.append(String(text[..<range.lowerBound]))
            slots.append(slot)
            text = String(text[range.upperBound...])
        }
        pieces.append(text)
        guard slots.count == readings + 3 else { throw HarnessError("batch template: found \(slots.count) placeholders, expected \(readings + 3)") }
        self.pieces = pieces
        self.slots = slots
        self.timeOrderedIDs = timeOrderedIDs
    }

    /// A new batch of `scanner` (fresh batch and reading IDs) under `revision`.
    func body(scanner: ScannerID, revision: Int) -> Data {
        let now = Date()
        var text = pieces[0]
        text.reserveCapacity(pieces.reduce(0) { $0 + $1.utf8.count } + slots.count * 36)
        for (slot, piece) in zip(slots, pieces.dropFirst()) {
            switch slot {
            case .batchID: text += UUID().uuidString
            case .readingID: text += (timeOrderedIDs ? UUID.timeOrdered(at: now, random: UUID().uuid) : UUID()).uuidString
            case .revision: text += String(revision)
            case .scanner: text += "\"\(scanner)\""
            }
            text += piece
        }
        return Data(text.utf8)
    }
}
