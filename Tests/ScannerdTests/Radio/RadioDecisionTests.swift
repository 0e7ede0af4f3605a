import Testing
@testable import scannerd

@Suite("Radio choice")
struct RadioDecisionTests {
    let none = DetectedAdapters(bluetooth: [], wifi: [])
    let both = DetectedAdapters(bluetooth: ["hci0", "hci1"], wifi: ["phy0"], wifiInterfaces: ["wlan0", "wlan1"])
    let bluetoothOnly = DetectedAdapters(bluetooth: ["hci0"], wifi: [])
    let wifiOnly = DetectedAdapters(bluetooth: [], wifi: ["phy0"], wifiInterfaces: ["wlan0"])

    @Test func simulatedIsAlwaysTheSimulation() throws {
        for adapters in [none, both] {
            #expect(try RadioDecision.decide(.simulated, adapters: adapters).source == .simulated)
        }
    }

    @Test func autoUsesTheRadiosThereAreAndTheSimulationWithoutAny() throws {
        let empty = try RadioDecision.decide(.auto, adapters: none)
        #expect(empty.source == .simulated && empty.reason.contains("no Bluetooth or Wi-Fi adapter"))
        #expect(try RadioDecision.decide(.auto, adapters: both).source == .hardware(bluetooth: "hci0", wifi: "wlan0"))
        #expect(try RadioDecision.decide(.auto, adapters: bluetoothOnly).source == .hardware(bluetooth: "hci0", wifi: nil))
        #expect(try RadioDecision.decide(.auto, adapters: wifiOnly).source == .hardware(bluetooth: nil, wifi: "wlan0"))
        let phyWithoutInterface = try RadioDecision.decide(.auto, adapters: DetectedAdapters(bluetooth: [], wifi: ["phy0"]))
        #expect(phyWithoutInterface.source == .simulated && phyWithoutInterface.reason.contains("phy0"))
    }

    @Test func namedRadiosAreUsedWhenPresent() throws {
        let named = try RadioDecision.decide(.hardware, adapters: both, hciDevice: "hci1", wifiInterface: "wlan1")
        #expect(named.source == .hardware(bluetooth: "hci1", wifi: "wlan1"))
        let autoMissing = try RadioDecision.decide(.auto, adapters: wifiOnly, hciDevice: "hci3")
        #expect(autoMissing.source == .hardware(bluetooth: nil, wifi: "wlan0"))
    }

    @Test func hardwareFailsClearlyWithoutARadioOrWithoutANamedOne() throws {
        #expect(throws: RadioChoiceError.noRadio(seen: none)) { try RadioDecision.decide(.hardware, adapters: none) }
        #expect(RadioChoiceError.noRadio(seen: none).description.contains("no Bluetooth controller and no Wi-Fi interface"))
        #expect(throws: RadioChoiceError.missing(["Wi-Fi interface wlan7"], seen: both)) {
            try RadioDecision.decide(.hardware, adapters: both, wifiInterface: "wlan7")
        }
        #expect(try RadioDecision.decide(.hardware, adapters: bluetoothOnly).source == .hardware(bluetooth: "hci0", wifi: nil))
    }
}
