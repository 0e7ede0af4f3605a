/// Bytes that do not have the layout a wire-format decoder expects: where (the byte offset in the
/// buffer the decoding started from) and why.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Offset of the byte at which decoding failed, counted from the start of the outermost buffer.
    public var offset: Int
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "byte \(offset): \(reason)" }
}
