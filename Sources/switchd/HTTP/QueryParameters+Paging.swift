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
        let limit = try int("limit", in: 1...Self.maxPageLimit) ?? Self.defaultPageLimit
        guard let token = text("cursor") else { return (0, limit) }
        do {
            return (try FeedCursor(token: token).afterSequence, limit)
        } catch {
            throw APIError.invalidField("cursor", error.reason)
        }
    }
}
