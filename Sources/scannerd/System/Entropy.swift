import Glibc

extension Syscall {
    /// The most bytes one ``fillRandom(_:)`` takes.
    static let randomChunk = 256

    /// Fills `buffer` (at most ``randomChunk`` bytes) from the kernel's random source with one
    /// `getentropy()`, which waits only while the kernel's pool is not yet initialised, early in
    /// boot. Throws when the kernel refuses (`ENOSYS` before Linux 3.17).
    static func fillRandom(_ buffer: UnsafeMutableRawBufferPointer) throws(SystemError) {
        precondition(buffer.count <= randomChunk, "getentropy() gives at most \(randomChunk) bytes")
        try retryingInterrupts("getentropy") { getentropy(buffer.baseAddress, buffer.count) }
    }
}
