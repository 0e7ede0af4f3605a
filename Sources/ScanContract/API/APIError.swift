#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The body of every error answer: `{"error": {"code", "message", "field"?, "batchID"?}}`.
public struct APIErrorBody: Codable, Hashable, Sendable {
    public struct Detail: Codable, Hashable, Sendable {
        /// Stable, machine-readable: `invalid_field`, `not_found`, `body_too_large`, …
        public var code: String
        /// For people: what was wrong and, where it helps, what would be right.
        public var message: String
        /// The JSON path of the offending field, for `invalid_field` and `malformed_json`.
        public var field: String?
        /// Set only when switchd refuses an uploaded batch for its content: that batch's ID. A
        /// scanner gives a batch up only on an answer naming it; no proxy or other server sends one.
        public var batchID: UUID?

        public init(code: String, message: String, field: String? = nil, batchID: UUID? = nil) {
            self.code = code
            self.message = message
            self.field = field
            self.batchID = batchID
        }
    }

    public var error: Detail

    public init(code: String, message: String, field: String? = nil, batchID: UUID? = nil) {
        error = Detail(code: code, message: message, field: field, batchID: batchID)
    }
}
