import Foundation
import ScanContract
import SwitchdStore

/// Tags' and beacons' telemetry: each one's latest, retained on `<prefix>/tags/<id>/telemetry`
/// or `<prefix>/beacons/<id>/telemetry`, with its battery entities announced (discovery when
/// on) the first time it has some and again when the tag or beacon is renamed (a beacon's
/// device in Home Assistant is made of them alone), and removed when it is gone.
extension MQTTStatePublisher {
    /// Reads every tag's and beacon's latest telemetry and publishes what changed since the
    /// last read.
    func publishTelemetry(_ state: inout PublishedState) async throws {
        state.telemetryMark = await feeds.telemetry.value
        let entries = try await database.emitterTelemetry()
        var messages: [MQTTMessage] = []
        let present = Set(entries.map(\.subject))
        for gone in state.telemetry.keys.filter({ !present.contains($0) }).sorted(by: Self.order) {
            messages.append(MQTTMessage(topic: telemetryTopic(of: gone), payload: [], qos: .atLeastOnce, retain: true))
            if let discovery { messages += discovery.removeBattery(of: gone) }
            state.telemetry[gone] = nil
        }
        for entry in entries where state.telemetry[entry.subject] != entry {
            let published = state.telemetry[entry.subject]
            if published?.name != entry.name, let discovery {
                messages += try discovery.announceBattery(of: entry.subject, named: entry.name, state: telemetryTopic(of: entry.subject))
            }
            if published?.telemetry != entry.telemetry {
                messages.append(try .json(entry.telemetry, topic: telemetryTopic(of: entry.subject), retain: true))
            }
            state.telemetry[entry.subject] = entry
        }
        try await publishAll(messages, kind: "telemetry")
    }

    private func telemetryTopic(of subject: TelemetrySubject) -> String {
        switch subject {
        case .tag(let id): topics.tagTelemetry(id)
        case .beacon(let id): topics.beaconTelemetry(id)
        }
    }

    private static func order(_ a: TelemetrySubject, _ b: TelemetrySubject) -> Bool {
        (a.beaconID != nil ? 1 : 0, a.tagID ?? a.beaconID ?? 0) < (b.beaconID != nil ? 1 : 0, b.tagID ?? b.beaconID ?? 0)
    }
}
