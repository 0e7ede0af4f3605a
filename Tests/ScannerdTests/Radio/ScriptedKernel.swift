import Foundation
@testable import scannerd

/// nl80211 played behind ``NL80211Channel``: each trigger is answered by `onTrigger` (an errno,
/// 0 for success, and the notifications that follow it), each dump with `bsses` then NLMSG_DONE.
/// `failReceive` makes chosen receive calls (counted over all channels, from 1) fail with an errno.
final class ScriptedKernel: @unchecked Sendable {
    static let family: UInt16 = 0x1C
    let lock = NSLock()
    var onTrigger: (Int) -> (errno: CInt, then: [[UInt8]]) = { _ in (0, [scanNotification(.newScanResults)]) }
    var bsses: [[UInt8]] = []
    /// Dumps (counted from 1) whose messages carry NLM_F_DUMP_INTR.
    var interruptedDumps: Set<Int> = []
    var failReceive: [Int: CInt] = [:]
    private(set) var requests: [NL80211Request] = []
    private(set) var receiveBuffers: [Int] = []
    private(set) var closedChannels = 0
    private var receives = 0
    private var triggers = 0
    private var dumps = 0
    private var sequence: UInt32 = 100

    func connect(_ receiveBuffer: Int) -> any NL80211Channel {
        lock.withLock { receiveBuffers.append(receiveBuffer) }
        return Channel(kernel: self)
    }

    var triggerCount: Int { lock.withLock { requests.filter { if case .triggerScan = $0 { true } else { false } }.count } }

    final class Channel: NL80211Channel {
        let kernel: ScriptedKernel
        var queue: [[UInt8]] = []

        init(kernel: ScriptedKernel) { self.kernel = kernel }

        func send(_ request: NL80211Request) throws -> UInt32 {
            let (sequence, datagrams) = kernel.answer(request)
            queue += datagrams
            return sequence
        }

        func receive(timeout: Duration) throws(SystemError) -> [UInt8]? {
            if let code = kernel.nextReceiveFailure() { throw SystemError(call: "recv", errno: code, path: nil) }
            return queue.isEmpty ? nil : queue.removeFirst()
        }

        func close() { kernel.lock.withLock { kernel.closedChannels += 1 } }
    }

    private func nextReceiveFailure() -> CInt? {
        lock.withLock {
            receives += 1
            return failReceive[receives]
        }
    }

    private func answer(_ request: NL80211Request) -> (UInt32, [[UInt8]]) {
        lock.lock()
        defer { lock.unlock() }
        requests.append(request)
        sequence += 1
        switch request {
        case .triggerScan:
            triggers += 1
            let (code, then) = onTrigger(triggers)
            return (sequence, [netlinkError(-code, sequence: sequence)] + then)
        case .getScan:
            dumps += 1
            let flags: UInt16 = 0x2 | (interruptedDumps.contains(dumps) ? 0x10 : 0) // NLM_F_MULTI, NLM_F_DUMP_INTR
            let messages = bsses.map { netlinkMessage(type: Self.family, flags: flags, sequence: sequence, payload: $0) }
            return (sequence, messages + [netlinkMessage(type: 3, flags: flags, sequence: sequence, payload: [0, 0, 0, 0])])
        }
    }
}

// Netlink bytes built by hand from `linux/netlink.h`, `linux/genetlink.h` and `linux/nl80211.h`.

func netlinkAttribute(_ type: UInt16, _ payload: [UInt8]) -> [UInt8] {
    let length = 4 + payload.count
    let padding = (4 - length % 4) % 4
    return le16(UInt16(length)) + le16(type) + payload + [UInt8](repeating: 0, count: padding)
}

func netlinkMessage(type: UInt16, flags: UInt16 = 0, sequence: UInt32, payload: [UInt8]) -> [UInt8] {
    le32(UInt32(16 + payload.count)) + le16(type) + le16(flags) + le32(sequence) + le32(0) + payload
}

/// NLMSG_ERROR answering request `sequence` (`error` is 0 or −errno), with the request's header.
func netlinkError(_ error: CInt, sequence: UInt32) -> [UInt8] {
    let request = le32(20) + le16(ScriptedKernel.family) + le16(0x5) + le32(sequence) + le32(0)
    return netlinkMessage(type: 2, flags: 0x100, sequence: sequence, payload: le32(UInt32(bitPattern: error)) + request)
}

enum ScanEvent: UInt8 {
    case triggerScan = 33, newScanResults = 34, scanAborted = 35
}

/// An nl80211 scan notification (seq 0) for interface `index`.
func scanNotification(_ event: ScanEvent, index: UInt32 = 3) -> [UInt8] {
    netlinkMessage(type: ScriptedKernel.family, sequence: 0, payload: [event.rawValue, 1, 0, 0] + netlinkAttribute(3, le32(index)))
}

/// The generic-netlink payload of one NEW_SCAN_RESULTS dump message: one BSS.
func scanResult(bssid last: UInt8, ssid: String, frequency: UInt32 = 2412, mBm: Int32 = -4500, lastSeen: UInt64) -> [UInt8] {
    let ies: [UInt8] = [0, UInt8(ssid.utf8.count)] + Array(ssid.utf8)
    let bss = netlinkAttribute(1, [0x02, 0, 0, 0, last, 0]) + netlinkAttribute(2, le32(frequency))
        + netlinkAttribute(7, le32(UInt32(bitPattern: mBm))) + netlinkAttribute(10, le32(120))
        + netlinkAttribute(15, le64(lastSeen)) + netlinkAttribute(6, ies)
    return [34, 1, 0, 0] + netlinkAttribute(3, le32(3)) + netlinkAttribute(47 | 0x8000, bss)
}

func le16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
func le32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
func le64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
