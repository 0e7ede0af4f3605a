#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A sealed batch in `ready/`, waiting for upload.
struct ReadyBatch: Sendable, Hashable {
    let name: BatchFileName
    let path: String

    var batchID: UUID { name.batchID }
}

/// What switchd said when it refused a batch, saved beside it in `rejected/`.
struct RejectionRecord: Codable, Sendable {
    var batchID: UUID
    var status: Int
    var time: Date
    /// The response body as text (switchd's `{"error": …}` JSON, normally).
    var response: String
}
