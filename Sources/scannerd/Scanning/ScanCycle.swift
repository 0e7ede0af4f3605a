#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The scan cycle a session is in. Cycle k ends when a Wi-Fi scan completes; BLE readings
/// heard meanwhile belong to cycle k too. After the session's last cycle there is none, so a
/// reading heard between the last scan and the radios stopping is not counted in a cycle the
/// switch never asked for. Shared by the session's BLE and Wi-Fi tasks.
final class ScanCycle: @unchecked Sendable {
    private let lock = Lock()
    private var index: Int
    private var finished = false

    init(startingAt index: Int) {
        self.index = index
    }

    /// The cycle readings heard now belong to; nil after ``finish()``.
    var current: Int? {
        lock.withLock { finished ? nil : index }
    }

    /// Ends the current cycle; the next one begins.
    func advance() {
        lock.withLock { index += 1 }
    }

    /// Ends the current cycle as the last one.
    func finish() {
        lock.withLock { finished = true }
    }
}
