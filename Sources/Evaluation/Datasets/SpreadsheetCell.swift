import Foundation

/// One cell of a spreadsheet as dataset parsers see it (the xlsx reading itself is
/// ``XLSXWorkbook``, in Files/).
public enum SpreadsheetCell: Hashable, Sendable {
    case empty
    case number(Double)
    case text(String)

    /// The cell's text, trimmed, or nil for a number or an empty cell.
    public var text: String? {
        if case .text(let value) = self { return value.trimmingCharacters(in: .whitespaces) }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
