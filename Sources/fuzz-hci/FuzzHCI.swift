import FuzzSupport
import RadioWire

/// libFuzzer entry: the input is one HCI event packet (no H4 type byte) or, when it starts with
/// "btsnoop", a whole btsnoop capture. Every decoder on the path from bytes to beacon frames runs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCI(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    if bytes.starts(with: Array("btsnoop".utf8)) {
        guard let events = try? BTSnoopFile(bytes: bytes).events() else { return 0 }
        for (_, event) in events { decode(event) }
    } else if let event = try? HCIEventPacket(bytes: bytes) {
        decode(event)
    }
    return 0
}

/// Runs every decoder that applies to `event`; errors are expected and ignored.
private func decode(_ event: HCIEventPacket) {
    _ = try? HCICommandComplete(event)
    _ = try? HCICommandStatus(event)
    guard let advertisements = try? event.advertisements() else { return }
    for advertisement in advertisements {
        guard let structures = try? ADStructure.parse(advertisement.data, origin: advertisement.dataOffset) else { continue }
        _ = try? BeaconFrame.all(in: structures)
    }
}

/// The process entry SwiftPM's link expects (see `runLibFuzzer`).
@_cdecl("fuzz_hci_main")
public func fuzzHCIMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc: argc, argv: argv, fuzzHCI)
}
