import Foundation
import Glibc
import RadioWire
import ScanContract
import Testing
@testable import scannerd

@Suite("Wi-Fi scanner")
struct NL80211WiFiScannerTests {
    func scanner(_ kernel: ScriptedKernel, counters: RadioCounters, events: EventLog, lookUp: @escaping @Sendable (String) throws -> WiFiInterface = { WiFiInterface(name: $0, index: 3) }) -> NL80211WiFiScanner {
        var scanner = NL80211WiFiScanner(
            interface: "wlan9", settings: WiFiScanSettings(), counters: counters, events: events, logger: quietLogger,
            connect: { kernel.connect($0) }, lookUp: lookUp
        )
        scanner.limits = .quick
        return scanner
    }

    @Test func withoutCAP_NET_ADMINItStopsTriggeringAndReadsTheCache() async throws {
        let kernel = ScriptedKernel()
        kernel.onTrigger = { _ in (EPERM, []) }
        kernel.bsses = [scanResult(bssid: 1, ssid: "cached", lastSeen: Syscall.boottimeNanoseconds())]
        let counters = RadioCounters()
        let subject = scanner(kernel, counters: counters, events: .disabled(logger: quietLogger))
        let first = try await subject.scan()
        #expect(first.kind == .cached && first.bsses.map(\.ssid) == ["cached"])
        let second = try await subject.scan()
        #expect(second.kind == .cached && second.bsses.isEmpty, "nothing seen since the first dump")
        #expect(kernel.triggerCount == 1, "one refused trigger, then dumps only")
        #expect(counters.snapshot.wifiScans == 2)
    }

    @Test func aLostInterfaceIsRecordedOnceAndItsRecoveryWhenScansWorkAgain() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/events.jsonl"
        let events = try EventLog(.file(path), logger: quietLogger)
        let kernel = ScriptedKernel()
        kernel.onTrigger = { count in count <= 2 ? (ENETDOWN, []) : (0, [scanNotification(.newScanResults)]) }
        let counters = RadioCounters()
        let subject = scanner(kernel, counters: counters, events: events)
        for _ in 0..<2 {
            await #expect(throws: NL80211Error.interfaceDown("wlan9")) { try await subject.scanWiFi() }
        }
        _ = try await subject.scanWiFi()
        let reader = EventLogReader(path: path)
        #expect(try reader.events("radioLost").count == 1)
        #expect(try reader.events("radioRecovered").first?["attempts"] as? Int == 2)
        #expect(counters.snapshot.radioFailures == 1 && counters.snapshot.radioRecoveries == 1 && counters.snapshot.wifiScans == 1)
    }

    @Test func aMissingInterfaceIsAClearError() async throws {
        let subject = scanner(ScriptedKernel(), counters: RadioCounters(), events: .disabled(logger: quietLogger)) { name in
            try WiFiInterface.named(name)
        }
        await #expect(throws: NL80211Error.noSuchInterface("wlan9")) { try await subject.scan() }
        #expect(throws: NL80211Error.noSuchInterface("nonexistent0")) { try WiFiInterface.named("nonexistent0") }
        #expect(throws: NL80211Error.notWireless("lo")) { try WiFiInterface.named("lo") }
        #expect(NL80211Error.noSuchInterface("nonexistent0").description.contains("no network interface named nonexistent0"))
    }

    @Test func aBSSBecomesAReadingWithRoundedDBmAndItsAge() throws {
        var bss = try #require(try NL80211BSS.fromScanResult(
            NetlinkMessage.parse(netlinkMessage(type: 0x1C, sequence: 1, payload: scanResult(bssid: 7, ssid: "lab", mBm: -6151, lastSeen: 1)))[0]
                .genericNetlink().attributes
        ))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let reading = try #require(NL80211WiFiScanner.reading(bss, at: now))
        #expect(reading.rssi == -62 && reading.time == now.addingTimeInterval(-0.12))
        #expect(reading.observation == .wifi(WiFiObservation(bssid: try BSSID("02:00:00:00:07:00"), ssid: "lab", frequencyMHz: 2412)))
        bss.signalDBm = nil
        #expect(NL80211WiFiScanner.reading(bss, at: now) == nil, "no reading without a dBm signal")
    }

    @Test func aScanLineIsTheDecodeLinePlusTheScanNumber() throws {
        let attributes = try NetlinkMessage.parse(netlinkMessage(type: 0x1C, sequence: 1, payload: scanResult(bssid: 7, ssid: "lab", lastSeen: 1)))[0]
            .genericNetlink().attributes
        let bss = try #require(try NL80211BSS.fromScanResult(attributes))
        let data = try JSONCoding.encoder().encode(ScannedBSSLine(scan: 2, bss: BSSLine(bss)))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let plain = try #require(try JSONSerialization.jsonObject(with: JSONCoding.encoder().encode(BSSLine(bss))) as? [String: Any])
        #expect(object["scan"] as? Int == 2)
        #expect(Set(object.keys) == Set(plain.keys).union(["scan"]))
        #expect(object["bssid"] as? String == "02:00:00:00:07:00" && object["ssid"] as? String == "lab" && object["signal"] as? Double == -45)
    }
}
