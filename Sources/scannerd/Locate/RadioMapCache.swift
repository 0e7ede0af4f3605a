#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Positioning
import ScanContract

/// The radio map scannerd positions with: the latest copy switchd gave, kept on disk so that
/// locating goes on offline and after a restart. Reading ``copy`` never waits for a fetch in
/// flight (the actor is free while ``refresh()`` waits for switchd).
actor RadioMapCache {
    /// One fetched map and the ETag that names it.
    struct Copy: Codable, Sendable {
        var etag: String
        var fetchedAt: Date
        var map: RadioMap
    }

    let path: String
    let api: SwitchdAPI
    let logger: Logger
    private(set) var copy: Copy?

    /// Loads the copy a previous run saved. A missing file means none; an unreadable or corrupt
    /// one is logged and ignored (the next refresh replaces it).
    init(path: String, api: SwitchdAPI, logger: Logger) {
        self.path = path
        self.api = api
        self.logger = logger
        guard FileSystem.exists(path) else { return }
        do {
            copy = try JSONCoding.decoder().decode(Copy.self, from: FileSystem.readFile(path))
        } catch {
            logger.warning("ignoring the saved radio map; it is fetched again", metadata: ["path": "\(path)", "error": "\(error)"])
        }
    }

    /// Asks switchd whether a newer map exists and, if so, keeps it (on disk first). When switchd
    /// cannot be reached or answers badly, the copy held so far stays in use and that is logged.
    /// Returns the copy to use; nil when no map was ever fetched.
    @discardableResult
    func refresh() async -> Copy? {
        do {
            switch try await api.radioMap(ifNoneMatch: copy?.etag) {
            case .unchanged:
                break
            case .changed(let map, let etag):
                let fresh = Copy(etag: etag, fetchedAt: Date(), map: map)
                do {
                    try FileSystem.writeDurably(try JSONCoding.encoder().encode(fresh), to: path)
                } catch {
                    logger.error("could not save the radio map; it is used from memory", metadata: ["error": "\(error)"])
                }
                copy = fresh
                logger.info("radio map updated", metadata: [
                    "etag": "\(etag)", "locations": "\(map.locations.count)", "beacons": "\(map.beacons.count)",
                ])
            }
        } catch is CancellationError {
        } catch {
            logger.warning("could not refresh the radio map; using the copy held", metadata: [
                "error": "\(error)", "held": "\(copy?.etag ?? "none")",
            ])
        }
        return copy
    }
}
