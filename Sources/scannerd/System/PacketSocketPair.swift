import Glibc

/// Two connected Unix sockets of type `SOCK_SEQPACKET`: what one end writes with one `write()`,
/// the other reads with one `read()`, as a raw HCI socket hands out events. `scannerd bench`
/// plays a controller through one end; the scan loop reads the other.
struct PacketSocketPair: Sendable {
    let controllerEnd: FileDescriptor
    let hostEnd: FileDescriptor

    /// Throws when the kernel refuses the pair (out of descriptors).
    static func make() throws(SystemError) -> PacketSocketPair {
        var ends: [CInt] = [-1, -1]
        try Syscall.retryingInterrupts("socketpair") {
            socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0, &ends)
        }
        return PacketSocketPair(controllerEnd: FileDescriptor(rawValue: ends[0]), hostEnd: FileDescriptor(rawValue: ends[1]))
    }

    /// Writes one packet from the controller's end; blocks while the host's end is full. Throws
    /// when the write fails (the host's end closed: `EPIPE`).
    func send(_ packet: [UInt8]) throws(SystemError) {
        try Syscall.retryingInterrupts("write") {
            packet.withUnsafeBytes { Glibc.write(controllerEnd.rawValue, $0.baseAddress, $0.count) }
        }
    }

    /// Closes the controller's end; a failure is ignored, the descriptor is gone either way on Linux.
    func closeControllerEnd() {
        _ = Glibc.close(controllerEnd.rawValue)
    }

    /// Closes the host's end, once its reader is done with it: closed earlier, its number could
    /// be handed to another socket that reader would then read.
    func closeHostEnd() {
        _ = Glibc.close(hostEnd.rawValue)
    }
}
