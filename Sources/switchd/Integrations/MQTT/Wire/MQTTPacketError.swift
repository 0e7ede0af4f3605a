/// Why bytes from the broker are not an MQTT packet switchd understands. The connection is closed
/// on any of these (the specification requires it for a malformed packet) and then made again.
struct MQTTPacketError: Error, CustomStringConvertible, Equatable {
    /// Byte offset within the packet where the problem was found.
    var offset: Int
    var reason: String

    var description: String { "malformed MQTT packet at byte \(offset): \(reason)" }
}
