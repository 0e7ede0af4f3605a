#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import RadioWire
import ScanContract

/// The Wi-Fi source of a real interface: ``NL80211ScanProcedure`` on a thread of its own for each
/// scan. Without CAP_NET_ADMIN it says so once and reads the kernel's cached results from then on.
/// An interface that goes away or down is recorded as a lost radio once, and as recovered when a
/// scan succeeds again (the scan session retries failed scans with backoff).
struct NL80211WiFiScanner: WiFiScanner {
    let interfaceName: String
    let settings: WiFiScanSettings
    let counters: RadioCounters
    let events: EventLog
    let logger: Logger
    /// Opens a channel with the given receive buffer; ``NL80211Socket`` outside tests.
    let connect: @Sendable (Int) throws -> any NL80211Channel
    let lookUp: @Sendable (String) throws -> WiFiInterface
    var limits = NL80211ScanProcedure.Limits()
    private let state = State()

    init(
        interface: String, settings: WiFiScanSettings, counters: RadioCounters, events: EventLog, logger: Logger,
        connect: @escaping @Sendable (Int) throws -> any NL80211Channel = { try NL80211Socket(receiveBufferBytes: $0) },
        lookUp: @escaping @Sendable (String) throws -> WiFiInterface = { try WiFiInterface.named($0) }
    ) {
        interfaceName = interface
        self.settings = settings
        self.counters = counters
        self.events = events
        self.logger = logger
        self.connect = connect
        self.lookUp = lookUp
    }

    /// One scan's results, as nl80211 gave them. Throws ``NL80211Error`` or `CancellationError`.
    func scan() async throws -> NL80211ScanProcedure.Outcome {
        try await RadioThread.run(name: "wifi-\(interfaceName)") { stop in try scan(stop: stop) }
    }

    func scanWiFi() async throws -> [RadioReading] {
        let outcome = try await scan()
        let now = Date()
        return outcome.bsses.compactMap { Self.reading($0, at: now) }
    }

    /// The reading of a BSS with a dBm signal and a frequency; nil otherwise. Its time is when it
    /// was last seen, from NL80211_BSS_SEEN_MS_AGO.
    static func reading(_ bss: NL80211BSS, at now: Date) -> RadioReading? {
        guard let signal = bss.signalDBm, let frequency = bss.frequency else { return nil }
        let age = Double(bss.seenMillisecondsAgo ?? 0) / 1000
        let observation = WiFiObservation(bssid: BSSID(rawValue: bss.bssid.rawValue), ssid: bss.ssid ?? "", frequencyMHz: Int(frequency))
        return RadioReading(observation: .wifi(observation), rssi: Int(signal.rounded()), time: now.addingTimeInterval(-age))
    }

    /// The blocking scan, on the calling thread.
    func scan(stop: StopSignal) throws -> NL80211ScanProcedure.Outcome {
        do {
            let outcome = try scanOnce(stop: stop)
            counters.add(\.wifiScans)
            counters.add(\.netlinkResyncs, outcome.resyncs)
            counters.add(\.malformedReports, outcome.malformed.count)
            if let attempts = state.recovered() {
                counters.recovered(interfaceName)
                logger.notice("radio recovered", metadata: ["interface": "\(interfaceName)", "attempts": "\(attempts)"])
                events.record(.radioRecovered(radio: "wifi", device: interfaceName, attempts: attempts))
            }
            return outcome
        } catch let error as NL80211Error where error.isInterfaceLost {
            if state.lost() {
                counters.lost(interfaceName)
                logger.warning("radio lost; scanning again with backoff", metadata: ["interface": "\(interfaceName)", "why": "\(error)"])
                events.record(.radioLost(radio: "wifi", device: interfaceName, error: "\(error)"))
            }
            throw error
        }
    }

    private func scanOnce(stop: StopSignal) throws -> NL80211ScanProcedure.Outcome {
        let procedure = NL80211ScanProcedure(
            interface: try lookUp(interfaceName), settings: settings, connect: connect,
            boottime: Syscall.boottimeNanoseconds, stop: stop, logger: logger, limits: limits
        )
        if !state.cachedOnly {
            do {
                return try procedure.triggerWaitDump()
            } catch NL80211Error.permissionDenied {
                state.useCachedOnly()
                logger.warning("no CAP_NET_ADMIN: cannot trigger scans; reading the kernel's cached results instead", metadata: [
                    "interface": "\(interfaceName)",
                ])
            }
        }
        let dumpStart = Syscall.boottimeNanoseconds()
        let outcome = try procedure.waitAndDump(since: state.lastCachedDump)
        state.cachedDumped(at: dumpStart)
        return outcome
    }
}

extension NL80211WiFiScanner {
    /// What the scanner remembers between scans.
    final class State: @unchecked Sendable {
        private let lock = Lock()
        private var cachedOnlyMode = false
        private var lastDump: UInt64?
        private var failedScans = 0

        var cachedOnly: Bool { lock.withLock { cachedOnlyMode } }
        var lastCachedDump: UInt64? { lock.withLock { lastDump } }
        func useCachedOnly() { lock.withLock { cachedOnlyMode = true } }
        func cachedDumped(at time: UInt64) { lock.withLock { lastDump = time } }

        /// Counts a scan lost to the interface; true for the first of a run of them.
        func lost() -> Bool {
            lock.withLock {
                failedScans += 1
                return failedScans == 1
            }
        }

        /// After a successful scan: the failed scans before it, nil when there were none.
        func recovered() -> Int? {
            lock.withLock {
                defer { failedScans = 0 }
                return failedScans > 0 ? failedScans : nil
            }
        }
    }
}
