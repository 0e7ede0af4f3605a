import FuzzSupport
import RadioWire

/// libFuzzer entry: the input is advertising data (a sequence of AD structures), decoded into
/// structures, manufacturer and service data, and beacon frames (iBeacon, Eddystone-UID, AltBeacon) and Eddystone-TLM telemetry.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdvertising(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let structures = try? ADStructure.parse(fuzzInput(start, count)) else { return 0 }
    for structure in structures {
        _ = try? ManufacturerSpecificData(structure)
        _ = try? ServiceData16(structure)
    }
    _ = try? BeaconFrame.all(in: structures)
    _ = try? EddystoneTLM.first(in: structures)
    return 0
}

/// The process entry SwiftPM's link expects (see `runLibFuzzer`).
@_cdecl("fuzz_advertising_main")
public func fuzzAdvertisingMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc: argc, argv: argv, fuzzAdvertising)
}
