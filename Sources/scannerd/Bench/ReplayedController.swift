import CBluetooth
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A controller for `scannerd bench`, behind ``HCIChannel``: it answers every command with a
/// successful Command Complete (legacy LE scanning supported), and the events a feeder writes to
/// the socket pair's controller end reach the scan loop through a `poll()` and a `read()` each,
/// read by the raw HCI socket's own code (``HCISocket/receivePacket(from:timeout:device:)``).
final class ReplayedController: HCIChannel, @unchecked Sendable {
    let sockets: PacketSocketPair
    private let lock = Lock()
    private var answers: [[UInt8]] = []

    init(sockets: PacketSocketPair) {
        self.sockets = sockets
    }

    func send(_ packet: [UInt8]) throws(SystemError) {
        guard packet.count >= 4, packet[0] == UInt8(HCI_COMMAND_PKT) else {
            throw SystemError(call: "write", errno: EINVAL, path: "replayed controller")
        }
        let opcode = UInt16(packet[1]) | UInt16(packet[2]) << 8
        var returnParameters: [UInt8] = [0]
        if opcode == HCICommand.readLocalSupportedCommands.opcode { returnParameters += Self.legacyScanningOnly }
        let event: [UInt8] = [UInt8(HCI_EVENT_PKT), UInt8(EVT_CMD_COMPLETE), UInt8(3 + returnParameters.count), 1, packet[1], packet[2]]
        lock.withLock { answers.append(event + returnParameters) }
    }

    func receive(timeout: Duration) throws(SystemError) -> [UInt8]? {
        if let answer = lock.withLock({ answers.isEmpty ? nil : answers.removeFirst() }) { return answer }
        return try HCISocket.receivePacket(from: sockets.hostEnd.rawValue, timeout: timeout, device: "replayed controller")
    }

    func isUp() -> Bool { true }

    /// The scan loop's last call: the host's end is closed here, by its reader; the benchmark
    /// closes the controller's end.
    func close() {
        sockets.closeHostEnd()
    }

    /// The supported-commands bitmap (§6.27) with only LE Set Scan Parameters and Enable.
    private static let legacyScanningOnly: [UInt8] = {
        var octets = [UInt8](repeating: 0, count: 64)
        octets[Int(FLOORSCAN_SUPPORTED_LE_SET_SCAN_PARAMETERS_OCTET)] |= 1 << UInt8(FLOORSCAN_SUPPORTED_LE_SET_SCAN_PARAMETERS_BIT)
        octets[Int(FLOORSCAN_SUPPORTED_LE_SET_SCAN_ENABLE_OCTET)] |= 1 << UInt8(FLOORSCAN_SUPPORTED_LE_SET_SCAN_ENABLE_BIT)
        return octets
    }()
}
