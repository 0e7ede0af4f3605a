import Hummingbird
import ScanContract

extension FeedSource where Item: Codable {
    /// Page size when the client does not say, and the largest it may ask for.
    static var defaultPageLimit: Int { 100 }
    static var maxPageLimit: Int { 1000 }

    /// A ``Page`` of the rows after the `cursor` parameter, ascending by sequence, at most
    /// `limit` (default 100, at most 1000); `nextCursor` is there exactly when more rows
    /// matching the filters follow.
    ///
    /// - Throws: 422 naming `limit` or `cursor` when either does not parse.
    func page(_ query: QueryParameters) async throws -> Response {
        let limit = try query.int("limit", in: 1...Self.maxPageLimit) ?? Self.defaultPageLimit
        var after: Int64 = 0
        if let token = query.text("cursor") {
            do {
                after = try FeedCursor(token: token).afterSequence
            } catch {
                throw APIError.invalidField("cursor", error.reason)
            }
        }
        let slice = try await read(after, limit + 1)
        let items = Array(slice.items.prefix(limit))
        let next = slice.items.count > limit ? items.last.map { FeedCursor(afterSequence: sequence($0)).token } : nil
        return try .json(Page(items: items, nextCursor: next))
    }
}
