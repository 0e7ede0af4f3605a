#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

extension SwitchdAPI {
    /// `GET /v1/tags`: the tags switchd tracks, track mode's allow-list. Throws like
    /// ``scanSwitch(of:afterRevision:wait:)``.
    func tags() async throws -> [Tag] {
        let response = try await client.send(request(.get, url("v1", "tags"), timeout: Self.requestTimeout))
        return try Self.decode([Tag].self, from: response, expecting: [200])
    }

    /// `POST /v1/sightings`; returns switchd's receipt. Throws like ``scanSwitch(of:afterRevision:wait:)``.
    func postSightings(_ batch: SightingBatch) async throws -> SightingReceipt {
        let body = try JSONCoding.encoder().encode(batch)
        let response = try await client.send(request(.post, url("v1", "sightings"), body: body, timeout: Self.requestTimeout))
        return try Self.decode(SightingReceipt.self, from: response, expecting: [201])
    }
}
