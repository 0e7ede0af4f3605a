import CBluetooth
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RadioWire

/// Drives one controller's LE scanning over an ``HCIChannel``: sends each command and waits on the
/// same socket for its Command Complete (or a failing Command Status). Events that are not the
/// answer (advertisements, the kernel's own commands' answers) are passed over.
struct HCIController {
    let channel: any HCIChannel
    let device: String
    var commandTimeout: Duration = .seconds(2)

    /// Sends `command` and returns its return parameters (Status first). Throws
    /// ``HCIError/commandFailed(opcode:status:)`` for a non-zero status not in `tolerated`,
    /// ``HCIError/commandTimedOut(opcode:)`` when no answer comes in time, and the channel's
    /// ``SystemError`` when writing or reading fails.
    @discardableResult
    func run(_ command: HCICommand, tolerating tolerated: Set<UInt8> = []) throws -> [UInt8] {
        try channel.send(command.packet)
        let deadline = ContinuousClock.now + commandTimeout
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, let packet = try channel.receive(timeout: remaining) else {
                throw HCIError.commandTimedOut(opcode: command.opcode)
            }
            guard let status = Self.answer(to: command.opcode, in: packet) else { continue }
            if status.code != 0, !tolerated.contains(status.code) {
                throw HCIError.commandFailed(opcode: command.opcode, status: status.code)
            }
            return status.returnParameters
        }
    }

    /// The status and return parameters when `packet` is the Command Complete or Command Status
    /// event for `opcode`; nil for any other packet (including ones that do not decode).
    static func answer(to opcode: UInt16, in packet: [UInt8]) -> (code: UInt8, returnParameters: [UInt8])? {
        guard packet.first == UInt8(HCI_EVENT_PKT), let event = try? HCIEventPacket(bytes: Array(packet.dropFirst()), origin: 1) else {
            return nil
        }
        switch CInt(event.eventCode) {
        case EVT_CMD_COMPLETE:
            guard let complete = try? HCICommandComplete(event), complete.commandOpcode == opcode else { return nil }
            return (complete.status ?? 0, complete.returnParameters)
        case EVT_CMD_STATUS:
            guard let status = try? HCICommandStatus(event), status.commandOpcode == opcode else { return nil }
            return (status.status, [status.status])
        default:
            return nil
        }
    }

    /// Reads the supported commands and starts scanning with `settings`: the extended commands when
    /// the controller has them (and `settings.legacyOnly` is off), the legacy ones otherwise. A scan
    /// already running (another program's) is stopped first, with the same command set.
    /// Returns the command set used, which ``stopScanning(_:)`` must use too.
    func startScanning(_ settings: HCIScanSettings) throws -> HCIScanCommandSet {
        let supported = try HCISupportedCommands(returnParameters: run(.readLocalSupportedCommands))
        let commands: HCIScanCommandSet
        if supported.extendedScanning, !settings.legacyOnly {
            commands = .extended
        } else if supported.legacyScanning {
            commands = .legacy
        } else {
            throw HCIError.leScanningUnsupported(device: device)
        }
        // Command Disallowed here only means no scan was running.
        try run(commands.enable(false), tolerating: [HCIError.commandDisallowed])
        try run(commands.parameters(settings))
        try run(commands.enable(true))
        return commands
    }

    /// Disables scanning. Throws like ``run(_:tolerating:)``; the caller usually only logs it.
    func stopScanning(_ commands: HCIScanCommandSet) throws {
        try run(commands.enable(false), tolerating: [HCIError.commandDisallowed])
    }
}
