import Dispatch
import Foundation
import Harness
import ScanContract

/// Flip → scanning: the time from sending a PATCH that turns the switch on to scannerd's radio
/// being armed (its `scanning` event), both read on CLOCK_MONOTONIC. And flip → first stored
/// reading: from the PATCH to the first reading of that revision arriving on the live feed.
struct FlipLatencyBench {
    let flips: Int
    let firstReadingFlips: Int

    struct Result {
        var flipToScanning: Stats
        var flipToSwitchReceived: Stats
        var flipToIdle: Stats
        var flipToFirstStored: Stats
    }

    func run(in folder: TemporaryFolder) async throws -> Result {
        let switchd = try await SwitchdInstance.start(in: folder, label: "switchd-flips", stateName: "switchd-flips")
        defer { switchd.process.signal(SIGKILL) }
        let tokenFile = try writeTokenFile(try await switchd.issueScannerToken(name: "bench scannerd"), in: folder, label: "scannerd-flips")
        let scannerd = try ManagedProcess(
            name: "scannerd", executable: try Binaries.url("scannerd"),
            arguments: ["run", "--switchd", switchd.baseURL.absoluteString, "--token-file", tokenFile, "--state-dir", folder.path("scannerd-flips"),
                        "--radio", "simulated", "--events", "-", "--sim-wifi-scan-ms", "300"],
            stderrPath: folder.path("scannerd-flips.stderr")
        )
        defer { scannerd.signal(SIGKILL) }
        let events = EventFollower(process: scannerd)
        let api = switchd.adminClient()
        _ = try await events.next { $0.event == "switch" }

        let floor = try await api.createFloor("Bench floor")
        let room = try await api.createRoom("Bench room", floor: floor)
        let spots = [try await api.createLocation(in: room, x: 5, y: 5), try await api.createLocation(in: room, x: 25, y: 12)]

        var onLatencies: [Double] = [], receivedLatencies: [Double] = [], offLatencies: [Double] = []
        print("flip → scanning: \(flips) flips …")
        for _ in 0..<flips {
            let sent = DispatchTime.now().uptimeNanoseconds
            let on = try await api.patchSwitch(SwitchPatch(scanning: true, mode: .locate, storeData: false))
            let received = try await events.next { $0.event == "switch" && $0.revision == on.revision }
            let scanning = try await events.next { $0.event == "scanning" && $0.revision == on.revision }
            receivedLatencies.append(milliseconds(from: sent, to: received.monotonicNs))
            onLatencies.append(milliseconds(from: sent, to: scanning.monotonicNs))
            let offSent = DispatchTime.now().uptimeNanoseconds
            _ = try await api.patchSwitch(SwitchPatch(scanning: false))
            let idle = try await events.next { $0.event == "idle" && $0.revision == on.revision }
            offLatencies.append(milliseconds(from: offSent, to: idle.monotonicNs))
        }

        print("flip → first stored reading: \(firstReadingFlips) flips …")
        let feed = EventStreamClient(url: switchd.baseURL.appendingPathComponent("v1/measurements/stream"), lastEventID: "0", token: switchd.adminToken)
        defer { feed.close() }
        var firstStored: [Double] = []
        var consumed = 0
        for index in 0..<firstReadingFlips {
            let sent = DispatchTime.now().uptimeNanoseconds
            let on = try await api.patchSwitch(SwitchPatch(scanning: true, mode: .survey, locationID: .set(spots[index % 2].id)))
            var arrived: UInt64?
            while arrived == nil {
                let received = try await feed.waitForEvents(consumed + 1, timeout: .seconds(10))
                for event in received[consumed...] {
                    let reading = try JSONCoding.decoder().decode(StoredMeasurement.self, from: Data(event.data.utf8))
                    if reading.switchRevision == on.revision, arrived == nil { arrived = DispatchTime.now().uptimeNanoseconds }
                }
                consumed = received.count
            }
            firstStored.append(milliseconds(from: sent, to: arrived!))
            let off = try await api.patchSwitch(SwitchPatch(scanning: false))
            _ = try await events.next { $0.event == "idle" && $0.revision == on.revision }
            _ = off
        }
        await scannerd.terminate()
        await switchd.process.terminate()
        return Result(flipToScanning: Stats(onLatencies), flipToSwitchReceived: Stats(receivedLatencies), flipToIdle: Stats(offLatencies), flipToFirstStored: Stats(firstStored))
    }
}

func milliseconds(from start: UInt64, to end: UInt64) -> Double {
    Double(Int64(bitPattern: end &- start)) / 1_000_000
}

/// Reads scannerd's `--events -` lines in order, each once.
final class EventFollower {
    let process: ManagedProcess
    private var position = 0

    init(process: ManagedProcess) {
        self.process = process
    }

    func next(timeout: Duration = .seconds(15), _ matches: @escaping @Sendable (ScannerEvent) -> Bool) async throws -> ScannerEvent {
        let (index, line) = try await process.waitForLine(from: position, timeout: timeout) { line in
            guard let event = try? JSONDecoder().decode(ScannerEvent.self, from: Data(line.utf8)) else { return false }
            return matches(event)
        }
        position = index + 1
        return try JSONDecoder().decode(ScannerEvent.self, from: Data(line.utf8))
    }
}
