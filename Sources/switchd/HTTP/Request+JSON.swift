import Foundation
import Hummingbird
import ScanContract

extension Request {
    /// Collects the body (up to the context's limit) and decodes it with ``JSONCoding``.
    ///
    /// - Throws: a 413 error over the limit; `DecodingError` when the body is not JSON (400
    ///   `malformed_json`) or not of this shape (422 naming the field); ``APIError`` 422 for JSON
    ///   holding a number its field cannot take (see ``numberDoesNotFit``).
    func decodeJSON<Value: Decodable>(_ type: Value.Type, context: AppRequestContext) async throws -> Value {
        var request = self
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        return try Self.decodeJSON(type, from: Data(buffer.readableBytesView))
    }

    /// ``decodeJSON(_:context:)`` of a body already collected, with the same errors.
    static func decodeJSON<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        do {
            return try JSONCoding.decoder().decode(type, from: data)
        } catch let error as DecodingError where error.isMalformedJSON && isJSON(data) {
            throw numberDoesNotFit
        }
    }

    /// Foundation's JSONDecoder reports a number that does not fit an integer field (a fraction,
    /// a negative for an unsigned field, or out of range) as "not valid JSON", without the field;
    /// the body is valid JSON, so this is a 422, naming the whole body.
    static let numberDoesNotFit = APIError.invalidField(
        "(body)", "holds a number its field cannot take: a fraction or a sign where a whole number is expected, or a value out of the field's range"
    )

    private static func isJSON(_ data: Data) -> Bool {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return true
        } catch {
            return false
        }
    }
}
