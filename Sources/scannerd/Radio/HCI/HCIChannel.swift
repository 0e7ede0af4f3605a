/// The raw HCI socket of one controller as the BLE source uses it: whole packets out and in.
/// ``HCISocket`` is the real one; tests play a controller behind this.
protocol HCIChannel: AnyObject {
    /// Writes one packet (H4 type byte first). Throws ``SystemError`` (`ENETDOWN` when the
    /// controller is down, `EPERM` without CAP_NET_RAW).
    func send(_ packet: [UInt8]) throws(SystemError)
    /// The next packet (H4 type byte first), or nil when none arrives within `timeout`. Throws
    /// ``SystemError`` when the read fails (`ENETDOWN`, `ENODEV`, `EIO`, `EPIPE` when the
    /// controller went away).
    func receive(timeout: Duration) throws(SystemError) -> [UInt8]?
    /// False once the controller is no longer registered or no longer up.
    func isUp() -> Bool
    /// Restores the socket filter found at opening and closes the socket. Failures are ignored:
    /// the controller may be gone.
    func close()
}
