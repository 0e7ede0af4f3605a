/// Why a UJIIndoorLoc CSV could not be read, naming the line (1 is the header) and the column
/// (1-based, with its header name when known).
public struct UJIIndoorLocError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int?
    public var columnName: String?
    public var reason: String

    public init(line: Int, column: Int? = nil, columnName: String? = nil, reason: String) {
        self.line = line
        self.column = column
        self.columnName = columnName
        self.reason = reason
    }

    public var description: String {
        var place = "line \(line)"
        if let column { place += ", column \(column)" }
        if let columnName { place += " (\(columnName))" }
        return "UJIIndoorLoc CSV, \(place): \(reason)"
    }
}
