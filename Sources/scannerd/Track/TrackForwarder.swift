#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// The listening role's loop: windows every advertisement heard (``TrackWindows``) and posts
/// each closed window's sightings of watched tags as one batch. The watched tags come from
/// switchd either way (``WatchSource``), so a tag registered later is picked up without a
/// restart. A batch switchd does not take is logged and dropped: sightings are a live view, not
/// a record to replay.
///
/// The latest Eddystone-TLM telemetry of watched emitters rides along in the batches, at most
/// one per emitter a minute (``TelemetryThrottle``).
///
/// A window closes when an advertisement of a later window arrives, when the stream ends, and
/// on `clock` ``closeDelay`` after the window's end (read from `now`), so a tag heard once in
/// a quiet room still has its window sent. The delay lets advertisements heard just before the
/// end, still on their way from the radio, count in their window.
struct TrackForwarder: Sendable {
    let api: SwitchdAPI
    let scannerID: ScannerID
    var windowLength: Double = 1
    var refreshEvery = 30
    let logger: Logger
    var clock: any Clock<Duration> = ContinuousClock()
    /// The wall clock the advertisements are stamped by.
    var now: @Sendable () -> Date = Date.init
    /// Where each batch's receipt is recorded (`sightings` events); nil records nothing.
    var events: EventLog?
    /// Seconds between two telemetry reports of one emitter.
    var telemetryInterval = TelemetryThrottle.defaultInterval

    /// Where the watched tags come from.
    enum WatchSource: Sendable {
        /// Read with the switch (`GET /v1/scanners/{id}/switch?watched=`, the same list as
        /// pushed) before the first advertisement (the run fails when it cannot be read), and
        /// again every `refreshEvery` closed windows: `scannerd track`.
        case readEvery
        /// Pushed with the switch (`scannerd run --listen`, ``SwitchWatcher``): nothing is
        /// watched until the first list arrives, and each list replaces the one before.
        case pushed(AsyncStream<[TagIdentity]>)
    }

    /// How long after its end a window is closed on the clock, seconds.
    var closeDelay: Double { min(0.25, windowLength / 2) }

    private enum Input: Sendable {
        case heard(TrackHearing)
        case watch(Set<TagIdentity>)
        /// The clock says every window ending by this time is over.
        case windowsEnded(Date)
    }

    /// Runs until `hearings` (advertisements in groups heard together) ends; returns the number
    /// of sightings switchd stored.
    ///
    /// - Throws: when the first allow-list of ``WatchSource/readEvery`` cannot be read, or the stream throws.
    func run<Heard: AsyncSequence & Sendable>(
        _ hearings: Heard, watching source: WatchSource = .readEvery
    ) async throws -> Int where Heard.Element == [TrackHearing] {
        var windows = TrackWindows(length: windowLength, watched: [])
        // Phones and watches (`irk` tags): their private addresses resolved here, on the Pi.
        var resolver = AddressResolver()
        var telemetry = TelemetryThrottle(interval: telemetryInterval)
        if case .readEvery = source {
            let list = try await api.watchedList(of: scannerID)
            windows.watch(Set(list))
            resolver.watch(list)
        }
        let (inputs, continuation) = AsyncThrowingStream.makeStream(of: Input.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            if case .pushed(let lists) = source {
                group.addTask {
                    for await list in lists { continuation.yield(.watch(Set(list))) }
                }
            }
            group.addTask {
                do {
                    for try await group in hearings {
                        for heard in group { continuation.yield(.heard(heard)) }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            group.addTask { try await self.announceWindowEnds(to: continuation) }
            defer { group.cancelAll() }
            var stored = 0, closedWindows = 0
            for try await input in inputs {
                let closed: [Sighting]
                switch input {
                case .heard(let heard):
                    let identities = resolver.resolving(heard.identities, at: heard.time)
                    telemetry.heard(identities, telemetry: heard.telemetry, at: heard.time, watched: windows.watched)
                    closed = windows.add(identities, rssi: heard.rssi, at: heard.time)
                case .windowsEnded(let time): closed = windows.close(before: time)
                case .watch(let identities):
                    windows.watch(identities)
                    resolver.watch(identities)
                    telemetry.watch(identities)
                    logWatching(identities.count, resolver)
                    continue
                }
                guard !closed.isEmpty else { continue }
                stored += await post(closed, telemetry: telemetry.take())
                closedWindows += 1
                if case .readEvery = source, closedWindows % refreshEvery == 0 {
                    await refresh(&windows, &resolver)
                }
            }
            return stored + (await post(windows.close(before: .distantFuture), telemetry: telemetry.take()))
        }
    }

    /// Sleeps on `clock` until ``closeDelay`` after the end of the window now open, says so, and
    /// again for every later window, until cancelled.
    private func announceWindowEnds(to continuation: AsyncThrowingStream<Input, any Error>.Continuation) async throws {
        while true {
            let seconds = now().timeIntervalSince1970
            let end = ((seconds / windowLength).rounded(.down) + 1) * windowLength
            // A millisecond more, so the time announced is past the end however it rounds.
            try await clock.sleep(for: .seconds(end + closeDelay - seconds) + .milliseconds(1))
            continuation.yield(.windowsEnded(now().addingTimeInterval(-closeDelay)))
        }
    }

    /// Says how many tags are watched and how many keys are resolved against (never the keys).
    private func logWatching(_ tags: Int, _ resolver: AddressResolver) {
        logger.info("Watching tags", metadata: ["tags": "\(tags)", "keys": "\(resolver.keyCount)"])
        if resolver.keysLeftOut > 0 {
            logger.warning("More phone keys watched than are resolved; the rest are not followed", metadata: [
                "keysLeftOut": "\(resolver.keysLeftOut)", "maxKeys": "\(AddressResolver.maxKeys)",
            ])
        }
    }

    private func refresh(_ windows: inout TrackWindows, _ resolver: inout AddressResolver) async {
        do {
            let list = try await api.watchedList(of: scannerID)
            if Set(list) != windows.watched || resolver.keysDiffer(from: list) { resolver.watch(list) }
            windows.watch(Set(list))
        } catch {
            logger.warning("Could not refresh the watched tags; keeping the list", metadata: ["error": "\(error)"])
        }
    }

    /// Telemetry goes with sightings only: what is dropped with a batch is sent again with the
    /// next report a minute later.
    private func post(_ sightings: [Sighting], telemetry: [HeardTelemetry]) async -> Int {
        guard !sightings.isEmpty else { return 0 }
        do {
            let batch = SightingBatch(scannerID: scannerID, sightings: sightings, telemetry: telemetry.isEmpty ? nil : telemetry)
            let receipt = try await api.postSightings(batch)
            events?.record(.sightingsSent(count: sightings.count, stored: receipt.stored, ignored: receipt.ignored))
            return receipt.stored
        } catch {
            logger.warning("Sightings not taken; dropped", metadata: ["error": "\(error)", "sightings": "\(sightings.count)"])
            return 0
        }
    }
}
