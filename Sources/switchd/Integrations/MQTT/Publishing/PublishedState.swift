import DaemonSupport
import Foundation
import ScanContract

/// What one connection has published so far, so only changes are sent again. A new connection
/// (or Home Assistant's birth message) starts from an empty one: everything is published again.
struct PublishedState: Sendable {
    var scanners: [ScannerID: ScanContract.Scanner] = [:]
    /// `hub.anyChange` as last read: switches and the scanner list are read again when it moves.
    var switchMark: Int64 = -1
    /// ``SwitchHub/deletions(after:)``'s mark as last read.
    var deletionMark = 0
    var switchRevisions: [ScannerID: Int] = [:]
    /// The highest position ID read.
    var positionCursor: Int64 = 0
    var positionTimes: [ScannerID: Date] = [:]
    var rooms: [ScannerID: String] = [:]
    /// The highest measurement sequence read.
    var measurementCursor: Int64 = 0
    /// The highest batch row ID whose receipt time was read.
    var batchCursor: Int64 = 0
    /// When switchd last heard from each scanner: a batch received or a position computed.
    var contacts: [ScannerID: Date] = [:]
    var availability: [ScannerID: MQTTAvailability] = [:]
    var lastSeen: [ScannerID: Date] = [:]

    /// Forgets everything published of a deleted scanner: one registered again under its ID
    /// is announced and published afresh.
    mutating func forget(_ scanner: ScannerID) {
        scanners[scanner] = nil
        switchRevisions[scanner] = nil
        positionTimes[scanner] = nil
        rooms[scanner] = nil
        contacts[scanner] = nil
        availability[scanner] = nil
        lastSeen[scanner] = nil
    }

    mutating func heard(from scanner: ScannerID, at time: Date) {
        contacts[scanner] = max(contacts[scanner] ?? time, time)
    }

    /// Online while switchd heard from the scanner less than `timeout` before `now`.
    func availability(of scanner: ScannerID, at now: Date, timeout: Duration) -> MQTTAvailability {
        guard let contact = contacts[scanner] else { return .offline }
        return now.timeIntervalSince(contact) < timeout.seconds ? .online : .offline
    }

    /// How long until the first online scanner goes offline if nothing is heard; nil when none is online.
    func untilNextTimeout(at now: Date, timeout: Duration) -> Duration? {
        let remaining = scanners.keys.compactMap { scanner -> Double? in
            guard availability[scanner] == .online, let contact = contacts[scanner] else { return nil }
            return contact.timeIntervalSince(now) + timeout.seconds
        }.min()
        return remaining.map { Duration(secondsRoundedUp: max(0, $0)) + .milliseconds(1) }
    }
}

