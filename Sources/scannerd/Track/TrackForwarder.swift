#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract

/// Track mode's loop: reads the watched tags from switchd, then windows every advertisement
/// heard (``TrackWindows``) and posts each closed window's sightings of watched tags as one
/// batch. The allow-list is read again every `refreshEvery` closed windows, so a tag registered
/// later is picked up. A batch switchd does not take is logged and dropped: sightings are a live
/// view, not a record to replay.
///
/// A window closes when an advertisement of a later window arrives, and when the stream ends.
struct TrackForwarder {
    let api: SwitchdAPI
    let scannerID: ScannerID
    var windowLength: Double = 1
    var refreshEvery = 30
    let logger: Logger

    /// Runs until `advertisements` ends; returns the number of sightings switchd stored.
    ///
    /// - Throws: when the first allow-list cannot be read, or the stream throws.
    func run<Heard: AsyncSequence>(_ advertisements: Heard) async throws -> Int where Heard.Element == HeardAdvertisement {
        var windows = TrackWindows(length: windowLength, watched: Set(try await api.tags().map(\.identity)))
        var stored = 0, closedWindows = 0
        for try await heard in advertisements {
            guard let rssi = heard.advertisement.rssi else { continue }
            let closed = windows.add(heard.tagIdentities, rssi: rssi, at: heard.time)
            guard !closed.isEmpty else { continue }
            stored += await post(closed)
            closedWindows += 1
            if closedWindows % refreshEvery == 0 {
                do {
                    windows.watch(Set(try await api.tags().map(\.identity)))
                } catch {
                    logger.warning("Could not refresh the watched tags; keeping the list", metadata: ["error": "\(error)"])
                }
            }
        }
        return stored + (await post(windows.close(before: .distantFuture)))
    }

    private func post(_ sightings: [Sighting]) async -> Int {
        guard !sightings.isEmpty else { return 0 }
        do {
            return try await api.postSightings(SightingBatch(scannerID: scannerID, sightings: sightings)).stored
        } catch {
            logger.warning("Sightings not taken; dropped", metadata: ["error": "\(error)", "sightings": "\(sightings.count)"])
            return 0
        }
    }
}
