import Logging

/// The BLE source of a real controller: ``HCIScanLoop`` on a thread of its own.
struct HCIBLEScanner: BLEScanner {
    let baseLoop: HCIScanLoop
    /// The settings each new stream arms the controller with (switchd's, ``LiveSettings``); nil:
    /// those it was made with.
    var currentSettings: (@Sendable () -> HCIScanSettings)?

    init(
        device: String, settings: HCIScanSettings, counters: RadioCounters, events: EventLog, logger: Logger,
        currentSettings: (@Sendable () -> HCIScanSettings)? = nil,
        open: @escaping @Sendable (String) throws -> any HCIChannel = { try HCISocket(device: $0) }
    ) {
        baseLoop = HCIScanLoop(device: device, settings: settings, open: open, counters: counters, events: events, logger: logger)
        self.currentSettings = currentSettings
    }

    /// The loop a new stream runs: with the settings in effect now.
    var loop: HCIScanLoop {
        var loop = baseLoop
        if let currentSettings { loop.settings = currentSettings() }
        return loop
    }

    /// The iBeacon readings heard, a gathered group at a time (``HCIScanLoop/gatherWindow``). The
    /// stream throws when the controller cannot be armed at the start; a controller lost later is
    /// recovered without ending it.
    func advertisements() -> AsyncThrowingStream<[RadioReading], any Error> {
        let loop = self.loop
        return RadioThread.stream(name: "ble-\(loop.device)") { stop, deliver in
            try loop.run(stop: stop) { group in
                let readings = group.flatMap(\.readings)
                if !readings.isEmpty { deliver(readings) }
            }
        }.0
    }

    /// Every group heard: its iBeacon readings for the scan session and every advertisement with
    /// an RSSI, beacon or not, for the listening role. Ends as ``advertisements()`` does.
    func heardGroups() -> AsyncThrowingStream<BLEHeardGroup, any Error> {
        let loop = self.loop
        return RadioThread.stream(name: "ble-\(loop.device)") { stop, deliver in
            try loop.run(stop: stop) { group in
                let heard = BLEHeardGroup(readings: group.flatMap(\.readings), hearings: group.compactMap(TrackHearing.init))
                if !heard.isEmpty { deliver(heard) }
            }
        }.0
    }

    /// Every group's iBeacon readings and the advertisements in it that carry plain TLM
    /// telemetry, for a scan session. Ends as ``advertisements()`` does.
    func sessionGroups() -> AsyncThrowingStream<BLEHeardGroup, any Error> {
        let loop = self.loop
        return RadioThread.stream(name: "ble-\(loop.device)") { stop, deliver in
            try loop.run(stop: stop) { group in
                let heard = BLEHeardGroup(
                    readings: group.flatMap(\.readings),
                    hearings: group.filter { $0.telemetry != nil }.compactMap(TrackHearing.init).filter { $0.telemetry != nil }
                )
                if !heard.isEmpty { deliver(heard) }
            }
        }.0
    }

    /// Every advertisement heard, beacon or not, and the signal that stops the scan (the stream
    /// then finishes once scanning is disabled and the socket closed).
    func heardAdvertisements() -> (AsyncThrowingStream<HeardAdvertisement, any Error>, StopSignal) {
        let loop = self.loop
        return RadioThread.stream(name: "ble-\(loop.device)") { stop, deliver in
            try loop.run(stop: stop) { $0.forEach(deliver) }
        }
    }
}
