/// A value written in JSON as one string: decoded with its throwing text initialiser (the reason
/// becomes the decoding error, so a 422 can name the field) and encoded as its description.
public protocol TextCodable: Codable, CustomStringConvertible {
    init(_ text: String) throws(FieldError)
}

extension TextCodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.reason)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
