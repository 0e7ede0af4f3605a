import ScanContract

extension QueryParameters {
    /// Page size when the client does not say, and the largest it may ask for.
    static let defaultPageLimit = 100
    static let maxPageLimit = 1000

    /// Where a page starts and how long it is: the rows after the `cursor` parameter (from the
    /// first without one), at most `limit` (default 100, at most 1000).
    ///
    /// - Throws: 422 naming `limit` or `cursor` when either does not parse.
    func pageRange() throws -> (after: Int64, limit: Int) {
        try pageRange(from: 0) { token throws(FieldError) in try FeedCursor(token: token).afterSequence }
    }

    /// As ``pageRange()`` for a list ordered by a text key (``KeyCursor``): nil starts at the first.
    func keyPageRange() throws -> (after: String?, limit: Int) {
        try pageRange(from: nil) { token throws(FieldError) in try KeyCursor(token: token).afterKey }
    }

    private func pageRange<After>(from start: After, reading: (String) throws(FieldError) -> After) throws -> (after: After, limit: Int) {
        let limit = try int("limit", in: 1...Self.maxPageLimit) ?? Self.defaultPageLimit
        guard let token = text("cursor") else { return (start, limit) }
        do {
            return (try reading(token), limit)
        } catch {
            throw APIError.invalidField("cursor", error.reason)
        }
    }
}
