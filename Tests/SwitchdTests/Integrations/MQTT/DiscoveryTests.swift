import Foundation
import ScanContract
import Testing
@testable import switchd

/// Each scanner's Home Assistant discovery payloads, checked against Home Assistant's
/// documented schema (``HomeAssistantSchema``).
@Suite("Home Assistant discovery")
struct DiscoveryTests {
    let topics = MQTTTopics(prefix: "floorscan", discoveryPrefix: "homeassistant")
    var discovery: Discovery { Discovery(topics: topics, discoveryPrefix: "homeassistant") }

    @Test(arguments: ["pi-lab", "pi.lab_2", "default"])
    func everyPayloadFollowsTheSchema(id: String) throws {
        let scanner = ScanContract.Scanner(id: try ScannerID(id), name: "Lab \(id)")
        let entities = discovery.entities(of: scanner)
        #expect(entities.map { "\($0.component)/\($0.objectID)" } == [
            "device_tracker/location", "sensor/floor", "sensor/x", "sensor/y", "sensor/accuracy", "sensor/last_seen",
        ])
        for message in try discovery.announce(scanner) {
            let component = String(message.topic.split(separator: "/")[1])
            let problems = HomeAssistantSchema.problems(
                component: component, topic: message.topic, payload: Data(message.payload), discoveryPrefix: "homeassistant"
            )
            #expect(problems.isEmpty, "\(problems)")
            #expect(message.retain && message.qos == .atLeastOnce)
        }
    }

    @Test func theTrackerFollowsTheRoomAndAllEntitiesShareOneDevice() throws {
        let scanner = ScanContract.Scanner(id: try ScannerID("pi-lab"), name: "Lab")
        let configs = discovery.entities(of: scanner).map(\.config)
        let tracker = try #require(configs.first)
        #expect(tracker.stateTopic == "floorscan/scanners/pi-lab/room")
        #expect(tracker.jsonAttributesTopic == "floorscan/scanners/pi-lab/position")
        #expect(Set(configs.map(\.device)).count == 1)
        #expect(Set(configs.map(\.uniqueID)).count == configs.count)
        #expect(configs.allSatisfy { $0.availability.map(\.topic) == ["floorscan/status", "floorscan/scanners/pi-lab/availability"] })
        #expect(configs.last?.deviceClass == "timestamp" && configs.last?.stateTopic == "floorscan/scanners/pi-lab/last-seen")
    }

    @Test func scannerIDsThatDifferOnlyInPunctuationGetDifferentNodes() throws {
        let ids = try ["pi.lab", "pi_lab", "pi-lab", "pi_2Elab"].map { Discovery.nodeID(of: try ScannerID($0)) }
        #expect(Set(ids).count == ids.count, "\(ids)")
    }

    @Test func removalIsAnEmptyRetainedConfigurationOnEveryTopic() throws {
        let id = try ScannerID("pi-lab")
        let removal = discovery.remove(id)
        let announced = try discovery.announce(ScanContract.Scanner(id: id, name: "Lab"))
        #expect(removal.map(\.topic) == announced.map(\.topic))
        #expect(removal.allSatisfy { $0.payload.isEmpty && $0.retain })
    }

    @Test func theCommandTopicNamesItsScanner() throws {
        #expect(topics.scannerOfSwitchCommand("floorscan/scanners/pi-lab/switch/set") == (try ScannerID("pi-lab")))
        #expect(topics.scannerOfSwitchCommand("floorscan/scanners/pi-lab/switch") == nil)
        #expect(topics.scannerOfSwitchCommand("other/scanners/pi-lab/switch/set") == nil)
        let nested = MQTTTopics(prefix: "site/a", discoveryPrefix: nil)
        #expect(nested.scannerOfSwitchCommand("site/a/scanners/x/switch/set") == (try ScannerID("x")))
    }
}
