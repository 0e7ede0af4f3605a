import Foundation
import Glibc
import ScanContract
import Testing
@testable import scannerd

@Suite("Wi-Fi source over nl80211")
struct NL80211ScanProcedureTests {
    /// CLOCK_BOOTTIME of the scans below, ns.
    static let start: UInt64 = 1_000_000_000_000
    let interface = WiFiInterface(name: "wlan9", index: 3)

    func procedure(_ kernel: ScriptedKernel, settings: WiFiScanSettings = WiFiScanSettings()) -> NL80211ScanProcedure {
        var procedure = NL80211ScanProcedure(
            interface: interface, settings: settings, connect: kernel.connect, boottime: { Self.start },
            stop: StopSignal(), logger: quietLogger
        )
        procedure.limits = .quick
        return procedure
    }

    func ssids(_ outcome: NL80211ScanProcedure.Outcome) -> [String] { outcome.bsses.compactMap(\.ssid) }

    @Test func triggersWaitsForItsInterfaceAndDropsWhatWasSeenBeforeTheScan() throws {
        let kernel = ScriptedKernel()
        kernel.onTrigger = { _ in (0, [scanNotification(.triggerScan), scanNotification(.newScanResults, index: 4), scanNotification(.newScanResults)]) }
        kernel.bsses = [
            scanResult(bssid: 1, ssid: "one", lastSeen: Self.start + 5),
            scanResult(bssid: 2, ssid: "before", lastSeen: Self.start - 1),
            scanResult(bssid: 3, ssid: "three", frequency: 5180, mBm: -6100, lastSeen: Self.start + 9),
        ]
        let settings = WiFiScanSettings(scanType: .passive, flush: true)
        let outcome = try procedure(kernel, settings: settings).triggerWaitDump()
        #expect(ssids(outcome) == ["one", "three"])
        #expect(outcome.stale == 1 && outcome.kind == .triggered && outcome.resyncs == 0)
        #expect(outcome.bsses.last?.signalDBm == -61 && outcome.bsses.last?.frequency == 5180)
        #expect(kernel.requests == [.triggerScan(interfaceIndex: 3, settings: settings), .getScan(interfaceIndex: 3)])
        #expect(kernel.receiveBuffers == [256 * 1024], "one socket, joined before the trigger")
        #expect(kernel.closedChannels == 1)
    }

    @Test func onEBUSYItWaitsForTheScanInFlight() throws {
        let kernel = ScriptedKernel()
        kernel.onTrigger = { _ in (EBUSY, [scanNotification(.newScanResults)]) }
        let seconds: UInt64 = 1_000_000_000
        kernel.bsses = [
            scanResult(bssid: 1, ssid: "in flight", lastSeen: Self.start - 5 * seconds),
            scanResult(bssid: 2, ssid: "long gone", lastSeen: Self.start - 20 * seconds),
        ]
        let outcome = try procedure(kernel).triggerWaitDump()
        #expect(outcome.kind == .inFlight && ssids(outcome) == ["in flight"])
        #expect(kernel.triggerCount == 1, "no second trigger while the other scan runs")
    }

    @Test func whenTheBusyScanWasAnotherInterfacesItScansAfterIt() throws {
        let kernel = ScriptedKernel()
        kernel.onTrigger = { count in
            count == 1 ? (EBUSY, [scanNotification(.newScanResults, index: 8)]) : (0, [scanNotification(.newScanResults)])
        }
        kernel.bsses = [scanResult(bssid: 1, ssid: "one", lastSeen: Self.start + 1)]
        let outcome = try procedure(kernel).triggerWaitDump()
        #expect(outcome.kind == .triggered && kernel.triggerCount == 2)
    }

    @Test func EPERMIsPermissionDenied() throws {
        let kernel = ScriptedKernel()
        kernel.onTrigger = { _ in (EPERM, []) }
        #expect(throws: NL80211Error.permissionDenied(interface: "wlan9")) { try procedure(kernel).triggerWaitDump() }
    }

    @Test func otherRefusalsAreTypedErrors() throws {
        let kernel = ScriptedKernel()
        kernel.onTrigger = { _ in (ENETDOWN, []) }
        #expect(throws: NL80211Error.interfaceDown("wlan9")) { try procedure(kernel).triggerWaitDump() }
        kernel.onTrigger = { _ in (EOPNOTSUPP, []) }
        #expect(throws: NL80211Error.triggerRefused(interface: "wlan9", errno: EOPNOTSUPP, message: nil)) {
            try procedure(kernel).triggerWaitDump()
        }
        kernel.onTrigger = { _ in (0, [scanNotification(.scanAborted)]) }
        #expect(throws: NL80211Error.aborted(interface: "wlan9")) { try procedure(kernel).triggerWaitDump() }
        kernel.onTrigger = { _ in (0, []) }
        #expect(throws: NL80211Error.timedOut(interface: "wlan9", waiting: "NEW_SCAN_RESULTS or SCAN_ABORTED")) {
            try procedure(kernel).triggerWaitDump()
        }
    }

    @Test func ENOBUFSWhileWaitingResynchronisesAndAsksAgain() throws {
        let kernel = ScriptedKernel()
        // The first socket overruns on its second read (the completion is lost); on the new socket
        // the trigger answers EBUSY (our scan still runs), then the completion arrives.
        kernel.onTrigger = { count in count == 1 ? (0, [scanNotification(.newScanResults)]) : (EBUSY, [scanNotification(.newScanResults)]) }
        kernel.failReceive = [2: ENOBUFS]
        kernel.bsses = [scanResult(bssid: 1, ssid: "one", lastSeen: Self.start + 1)]
        let outcome = try procedure(kernel).triggerWaitDump()
        #expect(outcome.resyncs == 1 && ssids(outcome) == ["one"] && outcome.kind == .triggered)
        #expect(kernel.receiveBuffers == [256 * 1024, 512 * 1024])
        #expect(kernel.triggerCount == 2)
    }

    @Test func ENOBUFSDuringTheDumpStartsItOverOnANewSocket() throws {
        let kernel = ScriptedKernel()
        kernel.bsses = [
            scanResult(bssid: 1, ssid: "one", lastSeen: Self.start + 1), scanResult(bssid: 2, ssid: "two", lastSeen: Self.start + 1),
        ]
        kernel.failReceive = [4: ENOBUFS] // ack, completion, first BSS, then the overrun
        let outcome = try procedure(kernel).triggerWaitDump()
        #expect(ssids(outcome) == ["one", "two"] && outcome.resyncs == 1)
        #expect(kernel.requests.filter { $0 == .getScan(interfaceIndex: 3) }.count == 2)
        #expect(kernel.closedChannels == 2)
    }

    @Test func aSocketThatKeepsOverrunningFailsInsteadOfSpinning() throws {
        let kernel = ScriptedKernel()
        kernel.failReceive = Dictionary(uniqueKeysWithValues: (1...100).map { ($0, ENOBUFS) })
        var subject = procedure(kernel)
        subject.limits.maximumResyncs = 3
        #expect(throws: NL80211Error.tooManyOverruns(interface: "wlan9", count: 4)) { try subject.triggerWaitDump() }
        #expect(kernel.receiveBuffers.count == 4)
    }

    @Test func anInconsistentDumpIsRedone() throws {
        let kernel = ScriptedKernel()
        kernel.interruptedDumps = [1]
        kernel.bsses = [scanResult(bssid: 1, ssid: "one", lastSeen: Self.start + 1)]
        let outcome = try procedure(kernel).triggerWaitDump()
        #expect(ssids(outcome) == ["one"])
        #expect(kernel.requests.filter { $0 == .getScan(interfaceIndex: 3) }.count == 2)
    }

    @Test func aMalformedResultIsSkippedAndCounted() throws {
        let kernel = ScriptedKernel()
        var broken = scanResult(bssid: 2, ssid: "broken", lastSeen: Self.start + 1)
        broken[broken.count - 7] = 40 // the SSID element's length now runs past its attribute
        kernel.bsses = [scanResult(bssid: 1, ssid: "one", lastSeen: Self.start + 1), broken]
        let outcome = try procedure(kernel).triggerWaitDump()
        #expect(ssids(outcome) == ["one"] && outcome.malformed.count == 1)
    }

    @Test func aStoppedScanEndsWithCancellation() throws {
        let kernel = ScriptedKernel()
        kernel.onTrigger = { _ in (0, []) }
        let subject = procedure(kernel)
        subject.stop.stop()
        #expect(throws: CancellationError.self) { try subject.triggerWaitDump() }
        #expect(kernel.closedChannels == 1)
    }

    @Test func cachedResultsWaitForAnybodysScanAndKeepOnlyNewerSightings() throws {
        let kernel = ScriptedKernel()
        kernel.bsses = [
            scanResult(bssid: 1, ssid: "new", lastSeen: Self.start + 1), scanResult(bssid: 2, ssid: "old", lastSeen: Self.start - 1),
        ]
        let outcome = try procedure(kernel).waitAndDump(since: Self.start)
        #expect(outcome.kind == .cached && ssids(outcome) == ["new"])
        #expect(kernel.triggerCount == 0)
    }
}

extension NL80211ScanProcedure.Limits {
    /// Short waits: the scripted kernel answers at once or never.
    static var quick: Self {
        var limits = Self()
        limits.completionTimeout = .milliseconds(200)
        limits.cachedResultsWait = .milliseconds(50)
        limits.dumpStallTimeout = .milliseconds(100)
        limits.readSlice = .milliseconds(1)
        return limits
    }
}
