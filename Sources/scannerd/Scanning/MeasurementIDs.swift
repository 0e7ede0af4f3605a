#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract
import Synchronization

/// Fresh IDs for measurements: time-ordered (version 7) UUIDs, the time of the reading then
/// random bits drawn from the kernel's random source sixteen at a time. `UUID()` opens, reads
/// and closes `/dev/urandom` for each one, three system calls per advertisement; this makes one
/// per sixteen. Time-ordered so that switchd's unique index on reading IDs grows at its end
/// (``UUID/timeOrdered(at:random:)``). Should the kernel refuse random bytes (it does not on any
/// Linux scannerd runs on), `UUID()`'s random bits are used instead.
final class MeasurementIDs: Sendable {
    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: Syscall.randomChunk)
        var used = Syscall.randomChunk
    }

    private let pool = Mutex(Pool())

    /// A new ID for a reading made at `time`.
    func next(at time: Date) -> UUID {
        let random = pool.withLock { pool -> uuid_t in
            if pool.used == pool.bytes.count {
                do {
                    try pool.bytes.withUnsafeMutableBytes { try Syscall.fillRandom($0) }
                } catch {
                    return UUID().uuid
                }
                pool.used = 0
            }
            let offset = pool.used
            pool.used += MemoryLayout<uuid_t>.size
            return pool.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: uuid_t.self) }
        }
        return UUID.timeOrdered(at: time, random: random)
    }
}
