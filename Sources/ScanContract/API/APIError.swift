/// The body of every error answer: `{"error": {"code", "message", "field"?}}`.
public struct APIErrorBody: Codable, Hashable, Sendable {
    public struct Detail: Codable, Hashable, Sendable {
        /// Stable, machine-readable: `invalid_field`, `not_found`, `body_too_large`, …
        public var code: String
        /// For people: what was wrong and, where it helps, what would be right.
        public var message: String
        /// The JSON path of the offending field, for `invalid_field` and `malformed_json`.
        public var field: String?

        public init(code: String, message: String, field: String? = nil) {
            self.code = code
            self.message = message
            self.field = field
        }
    }

    public var error: Detail

    public init(code: String, message: String, field: String? = nil) {
        error = Detail(code: code, message: message, field: field)
    }
}
