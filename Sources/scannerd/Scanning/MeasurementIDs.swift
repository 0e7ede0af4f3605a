#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Fresh IDs for measurements: random (version 4) UUIDs drawn from the kernel's random source
/// sixteen at a time. `UUID()` opens, reads and closes `/dev/urandom` for each one, three system
/// calls per advertisement; this makes one per sixteen. Should the kernel refuse (it does not on
/// any Linux scannerd runs on), `UUID()` makes the ID instead.
final class MeasurementIDs: Sendable {
    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: Syscall.randomChunk)
        var used = Syscall.randomChunk
    }

    private let pool = Mutex(Pool())

    func next() -> UUID {
        pool.withLock { pool in
            if pool.used == pool.bytes.count {
                do {
                    try pool.bytes.withUnsafeMutableBytes { try Syscall.fillRandom($0) }
                } catch {
                    return UUID()
                }
                pool.used = 0
            }
            let offset = pool.used
            pool.used += MemoryLayout<uuid_t>.size
            var uuid = pool.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: uuid_t.self) }
            uuid.6 = uuid.6 & 0x0F | 0x40 // version 4: random
            uuid.8 = uuid.8 & 0x3F | 0x80 // the RFC 4122 variant
            return UUID(uuid: uuid)
        }
    }
}
