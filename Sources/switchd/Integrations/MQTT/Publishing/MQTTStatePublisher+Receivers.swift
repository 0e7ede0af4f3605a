import Foundation
import ScanContract
import SwitchdStore

/// Placed scanners as receivers: a window of sightings they report is a contact, and every
/// ``MQTTStatePublisher/receiverInterval`` their report (placement, receive offset, rates) is
/// published when it changed.
extension MQTTStatePublisher {
    /// Reads the sightings stored since the last read (contacts and rates); when due, or with
    /// `force`, reads the placements and publishes each receiver's report that changed.
    func refreshReceivers(_ state: inout PublishedState, force: Bool) async throws {
        let (reports, last) = try await database.sightingReports(after: state.sightingCursor)
        state.sightingCursor = last
        let now = now()
        for (scanner, report) in reports where state.scanners[scanner] != nil {
            state.scannerContacts.heard(from: scanner, at: min(report.lastWindowEnd, now))
        }
        state.receiverRates.read(reports, at: now)
        guard force || state.receiversDue.map({ now >= $0 }) == true else { return }
        let placements = try await database.placements().filter { state.scanners[$0.scannerID] != nil }
        state.receiversDue = placements.isEmpty ? nil : now.addingTimeInterval(Self.receiverInterval)
        guard !placements.isEmpty else { return }
        let (floorNames, _) = try await placeNames()
        var messages: [MQTTMessage] = []
        for placement in placements {
            let message = ReceiverMessage(
                placement, floorName: floorNames[placement.floorID] ?? nil, rates: state.receiverRates.perMinute(of: placement.scannerID, at: now)
            )
            guard state.receivers[placement.scannerID] != message else { continue }
            state.receivers[placement.scannerID] = message
            messages.append(try .json(message, topic: topics.receiver(placement.scannerID), retain: true))
        }
        try await publishAll(messages, kind: "receiver")
    }
}
