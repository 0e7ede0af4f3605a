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

    /// A beacon's device in Home Assistant is made of its battery entities alone: renamed (its
    /// `name` metadata, `PUT /v1/beacons/{id}`), they are announced again under the new name.
    @Test func aRenamedBeaconsBatteryIsAnnouncedUnderItsNewName() async throws {
        let folder = try TemporaryFolder("mqtt-telemetry-rename")
        defer { folder.remove() }
        let broker = try await MosquittoBroker()
        let watcher = try await MQTTWatcher(port: broker.port, topics: ["homeassistant/+/floorscan_beacon_1/#"], folder: folder)
        try await withMQTTSwitchd(broker: broker) { switchd in
            let floor = try await switchd.client.createFloor("Ground")
            let id = BeaconID(uuid: UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!, major: 1, minor: 1)
            var new = NewBeacon(uuid: id.uuid, major: id.major, minor: id.minor, floorID: floor.id, x: 1, y: 1, measuredPower: -59)
            let beacon = try await switchd.client.call("POST", "/v1/beacons", json: new, as: Beacon.self)
            let report = HeardTelemetry(
                identity: .iBeacon(id), heardAt: Date(), batteryMillivolts: 2900, temperatureCelsius: 19, advertisementCount: 5000, uptimeSeconds: 86_400
            )
            let sent = try await switchd.client.send(
                "POST", "/v1/sightings", json: SightingBatch(scannerID: try ScannerID("default"), sightings: [], telemetry: [report])
            )
            #expect(sent.status == 201, "\(sent.text)")
            let first = try await watcher.waitFor("homeassistant/sensor/floorscan_beacon_1/battery_voltage/config", payload: .nonEmpty)
            #expect(try first.decoded(DiscoveryConfig.self).device.name == "Beacon 1.1")

            new.metadata = ["name": "Lobby"]
            _ = try await switchd.client.call("PUT", "/v1/beacons/\(beacon.id)", json: new, as: Beacon.self)
            for topic in ["homeassistant/sensor/floorscan_beacon_1/battery_voltage/config", "homeassistant/binary_sensor/floorscan_beacon_1/battery_low/config"] {
                let renamed = try await watcher.waitFor(topic, payload: .containing("Lobby"))
                #expect(try renamed.decoded(DiscoveryConfig.self).device.name == "Lobby")
            }
        }
        await watcher.stop()
        await broker.remove()
    }
}
