import ScanContract

/// A `scanner` row, read as a ``Scan/Scanner``; through GRDB, or a ``StoreRow`` on either database.
struct ScannerRecord {
    var id: String
    var name: String

    init(_ scanner: ScanContract.Scanner) {
        id = scanner.id.rawValue
        name = scanner.name
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for a column missing or of another kind.
    init(row: StoreRow) throws {
        id = try row.string("id")
        name = try row.string("name")
    }

    /// - Throws: ``StoreError/corruptRow(_:)`` for an ID switchd would not have stored.
    func scanner() throws -> ScanContract.Scanner {
        ScanContract.Scanner(id: try storedScannerID(id), name: name)
    }
}

/// Reads a scanner ID back from a row; switchd only stores checked IDs.
///
/// - Throws: ``StoreError/corruptRow(_:)`` when the text is not a valid scanner ID.
func storedScannerID(_ text: String) throws -> ScannerID {
    do {
        return try ScannerID(text)
    } catch {
        throw StoreError.corruptRow("stored scanner ID \"\(text)\" \(error.reason)")
    }
}
