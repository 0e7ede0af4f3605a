import ScanContract

extension FeedSource where Item: Codable {
    /// Up to `limit` rows after sequence `after`, ascending; `nextCursor` is there exactly when
    /// more rows matching the filters follow.
    ///
    /// - Throws: what the store read throws.
    func page(after: Int64, limit: Int) async throws -> Page<Item> {
        let slice = try await read(after, limit + 1)
        let items = Array(slice.items.prefix(limit))
        let next = slice.items.count > limit ? items.last.map { FeedCursor(afterSequence: sequence($0)).token } : nil
        return Page(items: items, nextCursor: next)
    }
}
