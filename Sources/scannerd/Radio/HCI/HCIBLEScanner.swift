import Logging

/// The BLE source of a real controller: ``HCIScanLoop`` on a thread of its own.
struct HCIBLEScanner: BLEScanner {
    let loop: HCIScanLoop

    init(
        device: String, settings: HCIScanSettings, counters: RadioCounters, events: EventLog, logger: Logger,
        open: @escaping @Sendable (String) throws -> any HCIChannel = { try HCISocket(device: $0) }
    ) {
        loop = HCIScanLoop(device: device, settings: settings, open: open, counters: counters, events: events, logger: logger)
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

    /// Every advertisement heard, beacon or not, and the signal that stops the scan (the stream
    /// then finishes once scanning is disabled and the socket closed).
    func heardAdvertisements() -> (AsyncThrowingStream<HeardAdvertisement, any Error>, StopSignal) {
        let loop = self.loop
        return RadioThread.stream(name: "ble-\(loop.device)") { stop, deliver in
            try loop.run(stop: stop) { $0.forEach(deliver) }
        }
    }
}
