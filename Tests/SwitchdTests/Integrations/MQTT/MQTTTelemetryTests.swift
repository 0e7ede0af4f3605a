import Foundation
import Harness
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// A tag's Eddystone-TLM battery reaching Home Assistant through a real Mosquitto, watched by a
/// real `mosquitto_sub`: its battery entities announced, its telemetry retained, and
/// `batteryLow` on its events topic.
@Suite("MQTT telemetry", .serialized)
struct MQTTTelemetryTests {
    static let bike = TagIdentity.address(MACAddress(rawValue: 0xAA_BB_CC_00_11_44))

    @Test func aLowBatteryReachesHomeAssistantsSensor() async throws {
        let folder = try TemporaryFolder("mqtt-telemetry")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["floorscan/tags/#", "homeassistant/+/floorscan_tag_1/#"], folder: folder)
        try await withMQTTSwitchd(broker: broker) { switchd in
            let tag = try await switchd.client.call("POST", "/v1/tags", json: NewTag(name: "Bike", identity: Self.bike), as: ScanContract.Tag.self)
            _ = try await watcher.waitFor("homeassistant/device_tracker/floorscan_tag_1/location/config", payload: .nonEmpty)
            let report = HeardTelemetry(
                identity: Self.bike, heardAt: Date(), batteryMillivolts: 2350, temperatureCelsius: 19, advertisementCount: 5000, uptimeSeconds: 86_400
            )
            let batch = SightingBatch(scannerID: try ScannerID("default"), sightings: [], telemetry: [report])
            let sent = try await switchd.client.send("POST", "/v1/sightings", json: batch)
            #expect(sent.status == 201, "\(sent.text)")

            let config = try await watcher.waitFor("homeassistant/binary_sensor/floorscan_tag_1/battery_low/config", payload: .nonEmpty)
            let low = try config.decoded(DiscoveryConfig.self)
            #expect(low.deviceClass == "battery" && low.stateTopic == "floorscan/tags/\(tag.id)/telemetry" && low.device.name == "Bike")
            let voltage = try await watcher.waitFor("homeassistant/sensor/floorscan_tag_1/battery_voltage/config", payload: .nonEmpty)
            #expect(try voltage.decoded(DiscoveryConfig.self).unitOfMeasurement == "mV")
            let state = try await watcher.waitFor("floorscan/tags/1/telemetry", payload: .nonEmpty)
            let telemetry = try state.decoded(EmitterTelemetry.self, with: JSONCoding.decoder())
            #expect(telemetry.batteryMillivolts == 2350 && telemetry.batteryLow)
            let event = try await watcher.waitFor("floorscan/tags/1/events", payload: .nonEmpty)
            #expect(try event.decoded(PresenceEvent.self, with: JSONCoding.decoder()).kind == .batteryLow)
        }
        await watcher.stop()
        await broker.remove()
    }
}
