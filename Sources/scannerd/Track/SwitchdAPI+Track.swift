#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

extension SwitchdAPI {
    /// Track mode's allow-list: the watched list switchd sends with `scanner`'s switch (every
    /// tag, and a placed scanner's beacons, ``ScanSwitch/watchedTags``), read at once. Throws
    /// like ``scanSwitch(of:afterRevision:watching:wait:)``. `irk` identities carry their keys
    /// (``ScanSwitch/watchedIdentities``).
    func watchedList(of scanner: ScannerID) async throws -> [TagIdentity] {
        try await scanSwitch(of: scanner, afterRevision: nil, watching: WatchedTags.digest(of: []), wait: .zero).watchedIdentities
    }

    /// `POST /v1/sightings`; returns switchd's receipt. Throws like ``scanSwitch(of:afterRevision:wait:)``.
    func postSightings(_ batch: SightingBatch) async throws -> SightingReceipt {
        let body = try JSONCoding.encoder().encode(batch)
        let response = try await client.send(request(.post, url("v1", "sightings"), body: body, timeout: Self.requestTimeout))
        return try Self.decode(SightingReceipt.self, from: response, expecting: [201])
    }
}
