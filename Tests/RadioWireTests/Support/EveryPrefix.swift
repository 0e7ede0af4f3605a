@testable import RadioWire
import Testing

/// Decodes every proper prefix of `bytes` (growing by one byte) and checks that each either throws
/// `WireError` or gives a result `acceptable` allows (usually: equal to the full decode).
func checkEveryPrefix<T>(_ bytes: [UInt8], _ decode: ([UInt8]) throws(WireError) -> T, acceptable: (T) -> Bool,
                         sourceLocation: SourceLocation = #_sourceLocation) -> (errors: Int, results: Int) {
    var errors = 0
    var results = 0
    for count in 0..<bytes.count {
        do {
            let result = try decode(Array(bytes[..<count]))
            results += 1
            #expect(acceptable(result), "prefix of \(count) bytes decoded to an unexpected result", sourceLocation: sourceLocation)
        } catch {
            errors += 1
            #expect(error.offset >= 0 && error.offset <= count, "error offset \(error.offset) outside a \(count)-byte prefix", sourceLocation: sourceLocation)
        }
    }
    return (errors, results)
}
