import Foundation
@testable import scannerd

/// A Bluetooth controller played behind ``HCIChannel``: answers every command with Command
/// Complete (status from `statuses`, default success; Read Local Supported Commands with the
/// configured bitmap), then hands out the scripted packets and errors in order. When the script
/// is used up it stops the loop under test.
final class ScriptedController: HCIChannel, @unchecked Sendable {
    enum Step {
        case packet([UInt8])
        case error(CInt)
        /// The controller reports itself down from now on (``isUp()`` false) and stays quiet.
        case goDown
    }

    private let lock = NSLock()
    private var answers: [[UInt8]] = []
    private var script: [Step]
    private var up = true
    private(set) var sent: [HCICommand] = []
    private(set) var closed = false
    /// Ends when the channel is closed.
    let closing: AsyncStream<Void>
    private let closingContinuation: AsyncStream<Void>.Continuation
    let supportedCommands: [UInt8]
    let statuses: [UInt16: UInt8]
    /// Commands left unanswered (to test timeouts).
    let silent: Set<UInt16>
    let stop: StopSignal

    init(supportedCommands: [UInt8], script: [Step], stop: StopSignal, statuses: [UInt16: UInt8] = [:], silent: Set<UInt16> = []) {
        self.supportedCommands = supportedCommands
        self.script = script
        self.stop = stop
        self.statuses = statuses
        self.silent = silent
        (closing, closingContinuation) = AsyncStream.makeStream()
    }

    /// A supported-commands bitmap with the legacy scan commands, and the extended ones too when asked.
    static func bitmap(legacy: Bool = true, extended: Bool = false) -> [UInt8] {
        var octets = [UInt8](repeating: 0, count: 64)
        if legacy { octets[26] |= 0b0000_1100 }
        if extended { octets[37] |= 0b0110_0000 }
        return octets
    }

    var opcodes: [UInt16] { lock.withLock { sent.map(\.opcode) } }

    func send(_ packet: [UInt8]) throws(SystemError) {
        precondition(packet.count >= 4 && packet[0] == 0x01, "an H4 command packet")
        let opcode = UInt16(packet[1]) | UInt16(packet[2]) << 8
        let command = HCICommand(ogf: CInt(opcode >> 10), ocf: CInt(opcode & 0x3FF), parameters: Array(packet.dropFirst(4)))
        lock.withLock {
            sent.append(command)
            guard !silent.contains(opcode) else { return }
            let status = statuses[opcode] ?? 0
            var parameters = [status]
            if opcode == HCICommand.readLocalSupportedCommands.opcode { parameters += supportedCommands }
            answers.append(commandComplete(opcode: opcode, returnParameters: parameters))
        }
    }

    /// Calls of ``receive(timeout:)`` so far.
    var reads: Int { lock.withLock { readCount } }
    private var readCount = 0
    /// The timeout each call of ``receive(timeout:)`` was given, in order.
    var timeouts: [Duration] { lock.withLock { givenTimeouts } }
    private var givenTimeouts: [Duration] = []

    func receive(timeout: Duration) throws(SystemError) -> [UInt8]? {
        let next: Step? = lock.withLock {
            readCount += 1
            givenTimeouts.append(timeout)
            if !answers.isEmpty { return .packet(answers.removeFirst()) }
            return script.isEmpty ? nil : script.removeFirst()
        }
        switch next {
        case .packet(let bytes):
            return bytes
        case .error(let code):
            throw SystemError(call: "read", errno: code, path: "hci0")
        case .goDown:
            lock.withLock { up = false }
            return nil
        case nil:
            if lock.withLock({ up }) { stop.stop() }
            return nil
        }
    }

    func isUp() -> Bool { lock.withLock { up } }

    func close() {
        lock.withLock { closed = true }
        closingContinuation.finish()
    }
}

/// Command Complete (H4 event) for `opcode`.
func commandComplete(opcode: UInt16, returnParameters: [UInt8]) -> [UInt8] {
    [0x04, 0x0E, UInt8(3 + returnParameters.count), 0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8)] + returnParameters
}

/// An LE Advertising Report event (H4) with one report carrying an iBeacon frame.
func iBeaconReport(minor: UInt8 = 7, rssi: Int8 = -60) -> [UInt8] {
    let data: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
        + (0..<16).map { UInt8($0) }                  // proximity UUID 00010203-…-0f
        + [0x00, 0x01, 0x00, minor, 0xC5]             // major 1, minor, measured power −59
    let report: [UInt8] = [0x03, 0x00, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, UInt8(data.count)] + data + [UInt8(bitPattern: rssi)]
    let parameters: [UInt8] = [0x02, 0x01] + report // LE Advertising Report, 1 report
    return [0x04, 0x3E, UInt8(parameters.count)] + parameters
}
