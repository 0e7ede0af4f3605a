import Foundation
import ScanContract
import SwitchdStore

extension QueryParameters {
    /// `uuid`, `major`, `minor` and `address` of `GET /v1/tags` and `GET /v1/beacons`.
    ///
    /// - Throws: 422 naming the parameter that does not parse.
    func tagLookup() throws -> TagLookup {
        var lookup = TagLookup()
        if let text = text("uuid") {
            guard let uuid = UUID(uuidString: text) else { throw APIError.invalidField("uuid", "must be a UUID, got \(APIError.echo(text))") }
            lookup.uuid = uuid
        }
        lookup.major = try int64("major", in: 0...Int64(UInt16.max)).map { UInt16($0) }
        lookup.minor = try int64("minor", in: 0...Int64(UInt16.max)).map { UInt16($0) }
        if let text = text("address") {
            do {
                lookup.address = try MACAddress(text)
            } catch {
                throw APIError.invalidField("address", error.reason)
            }
        }
        return lookup
    }
}
