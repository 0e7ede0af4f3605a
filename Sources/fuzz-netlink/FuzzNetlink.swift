import FuzzSupport
import RadioWire

/// libFuzzer entry: the input is read both as netlink messages (headers, generic netlink, error
/// messages with extended ack) and as the attribute stream of one nl80211 scan result (the form of
/// the real capture), down to the BSS and its information elements.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNetlink(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    for message in (try? NetlinkMessage.parse(bytes)) ?? [] {
        _ = try? message.error()
        if let (_, attributes) = try? message.genericNetlink() { decodeScanResult(attributes) }
    }
    if let attributes = try? NetlinkAttribute.parse(bytes) { decodeScanResult(attributes) }
    return 0
}

/// The BSS of a scan result, every nested attribute and every fixed-size read, as a decoder meets them.
private func decodeScanResult(_ attributes: [NetlinkAttribute]) {
    _ = try? NL80211BSS.fromScanResult(attributes)
    for attribute in attributes {
        _ = try? attribute.u8(); _ = try? attribute.u16(); _ = try? attribute.u32(); _ = try? attribute.u64()
        _ = attribute.string()
        if let nested = try? attribute.nested() {
            _ = try? NL80211BSS(nested)
            for inner in nested { _ = try? InformationElement.parse(inner.payload, origin: inner.payloadOffset) }
        }
    }
}

/// The process entry SwiftPM's link expects (see `runLibFuzzer`).
@_cdecl("fuzz_netlink_main")
public func fuzzNetlinkMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc: argc, argv: argv, fuzzNetlink)
}
