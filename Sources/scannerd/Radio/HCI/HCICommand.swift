import CBluetooth

/// One HCI command packet (Core Vol 4, Part E, §5.4.1): opcode and parameters, sent with its H4
/// packet type on the raw socket.
struct HCICommand: Equatable, Sendable {
    /// OGF in the top 6 bits, OCF in the low 10.
    var opcode: UInt16
    var parameters: [UInt8]

    init(ogf: CInt, ocf: CInt, parameters: [UInt8] = []) {
        opcode = UInt16(ogf) << 10 | UInt16(ocf)
        self.parameters = parameters
    }

    /// The bytes written to the raw socket: H4 type, opcode (little-endian), length, parameters.
    var packet: [UInt8] {
        [UInt8(HCI_COMMAND_PKT), UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters
    }
}

extension HCICommand {
    /// Read Local Supported Commands (§7.4.2): answers with the 64-octet supported-commands bitmap.
    static let readLocalSupportedCommands = HCICommand(ogf: OGF_INFO_PARAM, ocf: OCF_READ_LOCAL_COMMANDS)

    /// LE Set Scan Parameters (§7.8.10): scan type, interval, window, own address public, accept all.
    static func setScanParameters(_ settings: HCIScanSettings) -> HCICommand {
        HCICommand(ogf: OGF_LE_CTL, ocf: OCF_LE_SET_SCAN_PARAMETERS, parameters:
            [settings.scanType.parameter] + settings.intervalUnits.littleEndianBytes + settings.windowUnits.littleEndianBytes
            + [ownAddressPublic, filterPolicyAcceptAll])
    }

    /// LE Set Scan Enable (§7.8.11) with duplicate filtering off: positioning needs every RSSI.
    static func setScanEnable(_ enable: Bool) -> HCICommand {
        HCICommand(ogf: OGF_LE_CTL, ocf: OCF_LE_SET_SCAN_ENABLE, parameters: [enable ? 1 : 0, filterDuplicatesOff])
    }

    /// LE Set Extended Scan Parameters (§7.8.64) on the LE 1M PHY only.
    static func setExtendedScanParameters(_ settings: HCIScanSettings) -> HCICommand {
        HCICommand(ogf: OGF_LE_CTL, ocf: FLOORSCAN_OCF_LE_SET_EXT_SCAN_PARAMETERS, parameters:
            [ownAddressPublic, filterPolicyAcceptAll, scanningPHY1M, settings.scanType.parameter]
            + settings.intervalUnits.littleEndianBytes + settings.windowUnits.littleEndianBytes)
    }

    /// LE Set Extended Scan Enable (§7.8.65): duplicates not filtered, no duration, no period
    /// (scan until disabled).
    static func setExtendedScanEnable(_ enable: Bool) -> HCICommand {
        HCICommand(ogf: OGF_LE_CTL, ocf: FLOORSCAN_OCF_LE_SET_EXT_SCAN_ENABLE, parameters:
            [enable ? 1 : 0, filterDuplicatesOff, 0, 0, 0, 0])
    }

    private static let ownAddressPublic: UInt8 = 0x00
    private static let filterPolicyAcceptAll: UInt8 = 0x00
    private static let filterDuplicatesOff: UInt8 = 0x00
    /// Scanning_PHYs bit 0: LE 1M.
    private static let scanningPHY1M: UInt8 = 0x01
}

/// Which command set a controller is driven with; the two are never mixed (a controller that has
/// seen one answers the other with Command Disallowed).
enum HCIScanCommandSet: String, Sendable {
    /// LE Set Extended Scan Parameters / Enable (Bluetooth 5).
    case extended
    /// LE Set Scan Parameters / Enable.
    case legacy

    func parameters(_ settings: HCIScanSettings) -> HCICommand {
        self == .extended ? .setExtendedScanParameters(settings) : .setScanParameters(settings)
    }

    func enable(_ enable: Bool) -> HCICommand {
        self == .extended ? .setExtendedScanEnable(enable) : .setScanEnable(enable)
    }
}

/// The supported-commands bitmap of Read Local Supported Commands (§6.27).
struct HCISupportedCommands: Equatable, Sendable {
    var octets: [UInt8]

    /// From the command's return parameters (Status first, then 64 octets). Throws when fewer follow.
    init(returnParameters: [UInt8]) throws(HCIError) {
        guard returnParameters.count >= 1 + 64 else {
            throw HCIError.badAnswer(
                opcode: HCICommand.readLocalSupportedCommands.opcode,
                reason: "\(returnParameters.count) return parameter bytes, 65 expected"
            )
        }
        octets = Array(returnParameters[1...64])
    }

    func supports(octet: CInt, bit: CInt) -> Bool {
        octets.indices.contains(Int(octet)) && octets[Int(octet)] & (1 << UInt8(bit)) != 0
    }

    var extendedScanning: Bool {
        supports(octet: FLOORSCAN_SUPPORTED_LE_SET_EXT_SCAN_PARAMETERS_OCTET, bit: FLOORSCAN_SUPPORTED_LE_SET_EXT_SCAN_PARAMETERS_BIT)
            && supports(octet: FLOORSCAN_SUPPORTED_LE_SET_EXT_SCAN_ENABLE_OCTET, bit: FLOORSCAN_SUPPORTED_LE_SET_EXT_SCAN_ENABLE_BIT)
    }

    var legacyScanning: Bool {
        supports(octet: FLOORSCAN_SUPPORTED_LE_SET_SCAN_PARAMETERS_OCTET, bit: FLOORSCAN_SUPPORTED_LE_SET_SCAN_PARAMETERS_BIT)
            && supports(octet: FLOORSCAN_SUPPORTED_LE_SET_SCAN_ENABLE_OCTET, bit: FLOORSCAN_SUPPORTED_LE_SET_SCAN_ENABLE_BIT)
    }
}

extension UInt16 {
    var littleEndianBytes: [UInt8] { [UInt8(self & 0xFF), UInt8(self >> 8)] }
}
