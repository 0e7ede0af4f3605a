import Glibc

/// Why the BLE source could not start or keep scanning.
enum HCIError: Error, CustomStringConvertible, Equatable {
    /// No controller of that name (`hciconfig -a` / `btmgmt info` list them).
    case noSuchDevice(String)
    /// Opening or setting up the raw HCI socket failed.
    case socket(device: String, SystemError)
    /// The controller answered a command with a non-zero status.
    case commandFailed(opcode: UInt16, status: UInt8)
    /// The controller's answer to a command was too short or did not decode.
    case badAnswer(opcode: UInt16, reason: String)
    /// No Command Complete or Command Status arrived for the command in time.
    case commandTimedOut(opcode: UInt16)
    /// Read Local Supported Commands lists neither the legacy nor the extended scan commands.
    case leScanningUnsupported(device: String)
    /// The controller went down or away (reads failed with `errno`, or it is no longer up).
    case radioLost(device: String, reason: String)

    var description: String {
        switch self {
        case .noSuchDevice(let device):
            "no Bluetooth controller named \(device) (see /sys/class/bluetooth)"
        case .socket(let device, let error):
            "the raw HCI socket of \(device) failed: \(error)"
                + (error.errno == EPERM || error.errno == EACCES ? "; scanning needs CAP_NET_RAW and CAP_NET_ADMIN" : "")
        case .commandFailed(let opcode, let status):
            "HCI command 0x\(hex16(opcode)) failed with status 0x\(hex8(status)) (\(Self.statusName(status)))"
        case .badAnswer(let opcode, let reason):
            "the answer to HCI command 0x\(hex16(opcode)) is malformed: \(reason)"
        case .commandTimedOut(let opcode):
            "HCI command 0x\(hex16(opcode)) got no answer from the controller"
        case .leScanningUnsupported(let device):
            "\(device) supports neither the legacy nor the extended LE scan commands"
        case .radioLost(let device, let reason):
            "\(device) was lost: \(reason)"
        }
    }

    /// The Core specification's name of an HCI error code (Vol 1, Part F, §1.3), for the common ones.
    static func statusName(_ status: UInt8) -> String {
        switch status {
        case 0x01: "Unknown HCI Command"
        case 0x02: "Unknown Connection Identifier"
        case 0x03: "Hardware Failure"
        case 0x07: "Memory Capacity Exceeded"
        case 0x0C: "Command Disallowed"
        case 0x11: "Unsupported Feature or Parameter Value"
        case 0x12: "Invalid HCI Command Parameters"
        case 0x1F: "Unspecified Error"
        case 0x3A: "Controller Busy"
        default: "see the Core specification, Vol 1, Part F"
        }
    }

    /// The HCI status Command Disallowed.
    static let commandDisallowed: UInt8 = 0x0C
}

extension SystemError: Equatable {
    static func == (lhs: SystemError, rhs: SystemError) -> Bool {
        lhs.call == rhs.call && lhs.errno == rhs.errno && lhs.path == rhs.path
    }
}

private func hex8(_ value: UInt8) -> String { String(value, radix: 16, uppercase: true).leftPadded(2) }
private func hex16(_ value: UInt16) -> String { String(value, radix: 16, uppercase: true).leftPadded(4) }

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
