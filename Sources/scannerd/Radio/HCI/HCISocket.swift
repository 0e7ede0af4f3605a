import CBluetooth
import Glibc

/// A raw HCI socket bound to one controller through libbluetooth, filtered to the events the BLE
/// source reads: Command Complete, Command Status and LE Meta. The filter found at opening is put
/// back at closing.
final class HCISocket: HCIChannel {
    let device: String
    private let deviceID: CInt
    private let descriptor: CInt
    private var previousFilter = hci_filter()

    /// Opens `device` (`hci0`), powers it on when it is down (HCIDEVUP; without CAP_NET_ADMIN a
    /// controller that is already up is used as it is) and sets the socket filter. Throws
    /// ``HCIError/noSuchDevice(_:)`` when there is no such controller and ``HCIError/socket(device:_:)``
    /// when a call fails.
    init(device: String) throws(HCIError) {
        self.device = device
        deviceID = hci_devid(device)
        guard deviceID >= 0 else { throw HCIError.noSuchDevice(device) }
        let descriptor = hci_open_dev(deviceID)
        guard descriptor >= 0 else {
            let code = errno
            throw code == ENODEV ? HCIError.noSuchDevice(device) : HCIError.socket(device: device, SystemError(call: "hci_open_dev", errno: code, path: device))
        }
        self.descriptor = descriptor
        do {
            try Self.powerOn(descriptor, deviceID: deviceID, device: device)
            try Syscall.retryingInterrupts("getsockopt(HCI_FILTER)", path: device) { floorscan_hci_get_filter(descriptor, &previousFilter) }
            var filter = hci_filter()
            hci_filter_clear(&filter)
            hci_filter_set_ptype(HCI_EVENT_PKT, &filter)
            for event in [EVT_CMD_COMPLETE, EVT_CMD_STATUS, EVT_LE_META_EVENT] {
                hci_filter_set_event(event, &filter)
            }
            try Syscall.retryingInterrupts("setsockopt(HCI_FILTER)", path: device) { floorscan_hci_set_filter(descriptor, &filter) }
        } catch {
            _ = Glibc.close(descriptor) // The setup failure is what the caller needs to know.
            throw HCIError.socket(device: device, error)
        }
    }

    /// HCIDEVUP also cancels the kernel's automatic power-off of a controller no daemon manages.
    private static func powerOn(_ descriptor: CInt, deviceID: CInt, device: String) throws(SystemError) {
        do {
            try Syscall.retryingInterrupts("ioctl(HCIDEVUP)", path: device) { floorscan_hci_device_up(descriptor, deviceID) }
        } catch where error.errno == EALREADY {
            return
        } catch where error.errno == EPERM || error.errno == EACCES {
            // Not allowed to power it on: fine when it is up; the first command says otherwise.
            return
        }
    }

    func send(_ packet: [UInt8]) throws(SystemError) {
        let written = try Syscall.retryingInterrupts("write", path: device) {
            packet.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        }
        guard written == packet.count else { throw SystemError(call: "write", errno: EIO, path: device) }
    }

    func receive(timeout: Duration) throws(SystemError) -> [UInt8]? {
        try Self.receivePacket(from: descriptor, timeout: timeout, device: device)
    }

    /// The next packet on a packet socket (one read is one packet), or nil when none arrives
    /// within `timeout`: `poll()`, then one `read()` of at most an HCI event's size; with no time
    /// to wait, one `recv()` that does not block (`MSG_DONTWAIT`), so each packet of a gathered
    /// group costs one system call. The raw HCI socket reads this way, and so does the
    /// benchmark's replayed controller (`scannerd bench`). Throws when a call fails.
    static func receivePacket(from descriptor: CInt, timeout: Duration, device: String) throws(SystemError) -> [UInt8]? {
        if timeout > .zero {
            guard try Syscall.waitReadable(descriptor, timeout: timeout) else { return nil }
            return try read(from: descriptor, device: device, call: "read") { Glibc.read(descriptor, $0, $1) }
        }
        do {
            return try read(from: descriptor, device: device, call: "recv") { floorscan_recv_nowait(descriptor, $0, $1) }
        } catch where error.errno == EAGAIN || error.errno == EWOULDBLOCK {
            return nil
        }
    }

    /// One packet, read by `call` straight into an array of its own: one allocation of an
    /// event's greatest size, never zero-filled, then shrunk to what was read in place.
    private static func read(
        from descriptor: CInt, device: String, call: String, _ body: (UnsafeMutableRawPointer?, Int) -> Int
    ) throws(SystemError) -> [UInt8] {
        var failure: SystemError?
        let packet = [UInt8](unsafeUninitializedCapacity: Int(HCI_MAX_EVENT_SIZE) + 1) { buffer, count in
            do throws(SystemError) {
                count = try Syscall.retryingInterrupts(call, path: device) { body(buffer.baseAddress, buffer.count) }
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        return packet
    }

    func isUp() -> Bool {
        var info = hci_dev_info()
        guard hci_devinfo(deviceID, &info) == 0 else { return false }
        return hci_test_bit(CInt(HCI_UP), &info.flags) != 0
    }

    func close() {
        _ = floorscan_hci_set_filter(descriptor, &previousFilter) // The controller may be gone; nothing to restore then.
        _ = hci_close_dev(descriptor)
    }
}
