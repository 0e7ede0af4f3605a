/// The bytes libFuzzer hands a fuzz target, as the `[UInt8]` the `RadioWire` decoders take.
///
/// Shared by the `fuzz-*` executables (built only with `FLOORSCAN_FUZZ=1`, see Package.swift). A
/// decoder that throws `WireError` has done its job; only a trap (an out-of-range index, an
/// overflow, a force-unwrap) is a finding, and libFuzzer reports it as a crash with the input.
public func fuzzInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let start, count > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: start, count: count))
}
