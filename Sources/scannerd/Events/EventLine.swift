#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// One line of the event log: the event's fields plus `event`, `monotonicNs` (CLOCK_MONOTONIC,
/// comparable across processes on one machine) and `time` (RFC 3339).
struct EventLine: Encodable {
    var event: ScannerEvent
    var monotonicNs: UInt64
    var time: Date

    enum CodingKeys: String, CodingKey {
        case event, monotonicNs, time
        case revision, scanning, mode, batchID, count, ids, stored, duplicate, status, position
        case radio, device, error, attempts, ignored
        case settingsRevision, settings, unapplied
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(event.name, forKey: .event)
        try c.encode(monotonicNs, forKey: .monotonicNs)
        try c.encode(time, forKey: .time)
        switch event {
        case .switchReceived(let revision, let scanning, let mode):
            try c.encode(revision, forKey: .revision)
            try c.encode(scanning, forKey: .scanning)
            try c.encode(mode, forKey: .mode)
        case .scanning(let revision), .idle(let revision):
            try c.encode(revision, forKey: .revision)
        case .sealed(let batchID, let revision, let count, let ids):
            try c.encode(batchID, forKey: .batchID)
            try c.encode(revision, forKey: .revision)
            try c.encode(count, forKey: .count)
            try c.encode(ids, forKey: .ids)
        case .acked(let batchID, let stored, let duplicate):
            try c.encode(batchID, forKey: .batchID)
            try c.encode(stored, forKey: .stored)
            try c.encode(duplicate, forKey: .duplicate)
        case .positioned(let revision, let position):
            try c.encode(revision, forKey: .revision)
            try c.encode(position, forKey: .position)
        case .rejected(let batchID, let status):
            try c.encode(batchID, forKey: .batchID)
            try c.encode(status, forKey: .status)
        case .radioLost(let radio, let device, let error):
            try c.encode(radio, forKey: .radio)
            try c.encode(device, forKey: .device)
            try c.encode(error, forKey: .error)
        case .radioRecovered(let radio, let device, let attempts):
            try c.encode(radio, forKey: .radio)
            try c.encode(device, forKey: .device)
            try c.encode(attempts, forKey: .attempts)
        case .sightingsSent(let count, let stored, let ignored):
            try c.encode(count, forKey: .count)
            try c.encode(stored, forKey: .stored)
            try c.encode(ignored, forKey: .ignored)
        case .settingsApplied(let revision, let settings, let unapplied):
            try c.encodeIfPresent(revision, forKey: .settingsRevision)
            try c.encode(settings, forKey: .settings)
            try c.encode(unapplied, forKey: .unapplied)
        }
    }
}
