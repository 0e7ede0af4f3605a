/// Turns a `DecodingError` into the JSON path of the field and a sentence saying what is wrong,
/// so a 422 can name the field (`measurements[3].rssi`).
extension DecodingError {
    public var fieldPath: String {
        switch self {
        case .keyNotFound(let key, let context):
            return Self.render(context.codingPath + [key])
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return Self.render(context.codingPath)
        @unknown default:
            return Self.render([])
        }
    }

    public var reason: String {
        switch self {
        case .typeMismatch(let type, let context):
            return "must be \(Self.describe(type))" + Self.detail(context)
        case .valueNotFound(let type, let context):
            return "must be \(Self.describe(type)), not null" + Self.detail(context)
        case .keyNotFound(_, let context):
            let why = context.debugDescription
            return why.hasPrefix("No value associated") ? "is required" : why
        case .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return "is not valid"
        }
    }

    /// True when the body was not JSON at all (as opposed to JSON of the wrong shape).
    public var isMalformedJSON: Bool {
        guard case .dataCorrupted(let context) = self, context.codingPath.isEmpty else { return false }
        return context.underlyingError != nil || context.debugDescription.lowercased().contains("json")
    }

    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "(body)" : text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type: "a whole number"
        case is UInt16.Type: "a whole number from 0 to 65535"
        case is Double.Type, is Float.Type: "a number"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" :
                String(describing: type).hasPrefix("Dictionary") ? "an object" : "a \(type)"
        }
    }

    private static func detail(_ context: Context) -> String {
        let why = context.debugDescription
        if why.hasPrefix("Expected to decode") || why.isEmpty { return "" }
        return " (\(why))"
    }
}
