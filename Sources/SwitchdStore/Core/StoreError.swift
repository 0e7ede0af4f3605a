import ScanContract

/// Why a storage method refused: the caller's request did not fit what is stored, or there is
/// no room to store it. The database is unchanged when one of these is thrown.
package enum StoreError: Error, Sendable, Equatable {
    /// Something the request names by ID does not exist; the text says which ("no floor 7").
    case notFound(String)
    /// A request field names something that does not exist or does not fit.
    case invalidField(ValidationError)
    /// The request clashes with the current state (an ID taken, a revision moved on).
    case conflict(String)
    /// A stored row could not be read back; a bug or a damaged file, never the client's fault.
    case corruptRow(String)
    /// SQLite found the disk full (SQLITE_FULL): nothing of the write was stored, and what was
    /// stored before is intact. Writing again once space is freed succeeds.
    case storageFull
    /// The token (by its ID) a request was let in with was revoked before the request's write:
    /// a write that checks its token again (``AppDatabase/ingest(_:stopEarly:)``) stored nothing.
    case tokenRevoked(Int64)
}
