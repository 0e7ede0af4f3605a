/// libFuzzer's driver (compiler-rt `FuzzerInterface.h`): parses libFuzzer's options from argv and
/// runs the fuzzing loop with `callback` as the target. Linked in by `-sanitize=fuzzer`.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The process entry of a fuzz executable. SwiftPM links debug executables with their entry point
/// renamed to `<module>_main` (so tests can import them) and `main` pointing at it; a fuzz target
/// defines that symbol with `@_cdecl` and calls this, which hands the process to libFuzzer.
public func runLibFuzzer(
    argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
}
