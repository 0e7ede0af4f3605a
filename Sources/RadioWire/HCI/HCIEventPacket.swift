/// An HCI event packet (Core Vol 4, Part E, §5.4.4): event code, parameter total length, parameters.
public struct HCIEventPacket: Hashable, Sendable {
    /// Event_Code.
    public var eventCode: UInt8
    /// The event parameters (Parameter_Total_Length bytes).
    public var parameters: [UInt8]
    /// Offset of the first parameter byte in the buffer the packet was decoded from.
    public var parametersOffset: Int

    public init(eventCode: UInt8, parameters: [UInt8], parametersOffset: Int = 2) {
        self.eventCode = eventCode
        self.parameters = parameters
        self.parametersOffset = parametersOffset
    }

    /// Decodes `bytes` (no H4 type byte). Throws when the header is cut short or when
    /// Parameter_Total_Length does not match the bytes that follow (fewer or more).
    public init(bytes: [UInt8], origin: Int = 0) throws(WireError) {
        try self.init(reader: ByteReader(bytes, origin: origin))
    }

    /// Decodes the event in `bytes`, a part of a bigger buffer (an H4 packet after its type
    /// byte), without copying it first; offsets in errors are positions in the whole buffer.
    public init(bytes: ArraySlice<UInt8>) throws(WireError) {
        try self.init(reader: ByteReader(bytes))
    }

    private init(reader: ByteReader) throws(WireError) {
        var reader = reader
        eventCode = try reader.u8("Event_Code")
        let length = Int(try reader.u8("Parameter_Total_Length"))
        parametersOffset = reader.offset
        guard length == reader.remaining else {
            throw reader.error("Parameter_Total_Length is \(length) but \(reader.remaining) parameter bytes follow")
        }
        parameters = reader.rest()
    }

    /// A reader over the parameters, reporting offsets in the original buffer.
    var parameterReader: ByteReader { ByteReader(parameters, origin: parametersOffset) }

    /// The LE Meta event inside, or nil when this is another event. Throws when it is an LE Meta
    /// event without a subevent code.
    public func leMetaEvent() throws(WireError) -> HCILEMetaEvent? {
        guard eventCode == EVT_LE_META_EVENT else { return nil }
        return try HCILEMetaEvent(self)
    }

    /// Every advertisement in this event: all reports of an LE Advertising Report or LE Extended
    /// Advertising Report, none for any other event. Throws when such a report is malformed.
    public func advertisements() throws(WireError) -> [LEAdvertisement] {
        guard let meta = try leMetaEvent() else { return [] }
        switch meta.subeventCode {
        case EVT_LE_ADVERTISING_REPORT:
            return try HCILEAdvertisingReport(meta).reports.map(LEAdvertisement.init)
        case BT_HCI_EVT_LE_EXT_ADV_REPORT:
            return try HCILEExtendedAdvertisingReport(meta).reports.map(LEAdvertisement.init)
        default:
            return []
        }
    }
}

/// The LE Meta event (Core Vol 4, Part E, §7.7.65): a subevent code and its parameters.
public struct HCILEMetaEvent: Hashable, Sendable {
    /// Subevent_Code.
    public var subeventCode: UInt8
    /// The subevent's parameters.
    public var parameters: [UInt8]
    public var parametersOffset: Int

    /// Throws when `event` is not an LE Meta event or has no subevent code.
    public init(_ event: HCIEventPacket) throws(WireError) {
        var reader = event.parameterReader
        guard event.eventCode == EVT_LE_META_EVENT else {
            throw WireError(offset: event.parametersOffset - HCI_EVENT_HDR_SIZE, reason: "event 0x\(hexByte(event.eventCode)) is not an LE Meta event")
        }
        subeventCode = try reader.u8("Subevent_Code")
        parametersOffset = reader.offset
        parameters = reader.rest()
    }

    var parameterReader: ByteReader { ByteReader(parameters, origin: parametersOffset) }
}
