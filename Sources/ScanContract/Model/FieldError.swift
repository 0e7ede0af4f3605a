/// Why one field's value is not acceptable. The caller knows the field's name and adds it
/// (see ``ValidationError``); this carries only the reason, phrased to follow "field: ".
public struct FieldError: Error, Sendable, Equatable {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }
}

/// A request value that cannot be accepted, naming the field by its JSON path
/// (`measurements[3].rssi`) so a client can fix exactly that.
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    public let reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public init(field: String, _ error: FieldError) {
        self.init(field: field, reason: error.reason)
    }

    public var description: String { "\(field): \(reason)" }
}
