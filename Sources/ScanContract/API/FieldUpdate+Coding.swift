extension KeyedDecodingContainer {
    /// A PATCH field: left out is ``FieldUpdate/unchanged``, `null` is `.set(nil)`.
    func decodeUpdate<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> FieldUpdate<T> {
        guard contains(key) else { return .unchanged }
        if try decodeNil(forKey: key) { return .set(nil) }
        return .set(try decode(T.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    /// Writes a PATCH field back as ``KeyedDecodingContainer/decodeUpdate(_:forKey:)`` reads it.
    mutating func encodeUpdate<T: Encodable>(_ update: FieldUpdate<T>, forKey key: Key) throws {
        switch update {
        case .unchanged: break
        case .set(nil): try encodeNil(forKey: key)
        case .set(let value?): try encode(value, forKey: key)
        }
    }
}

extension KeyedDecodingContainer {
    /// An optional field that may be left out but is never `null`: nil when the key is absent,
    /// and a `DecodingError.valueNotFound` (answered 422 `invalid_field`) for an explicit `null`,
    /// which `decodeIfPresent` would quietly take for "left out".
    func decodeUnlessAbsent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        return try decode(T.self, forKey: key)
    }
}
