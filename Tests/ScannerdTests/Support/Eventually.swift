import Foundation
import Testing

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    /// What the test saw last, when it says; so a failure in CI can be understood from its log.
    var saw: String? = nil
    var description: String { "timed out waiting for \(what)" + (saw.map { "; saw: \($0)" } ?? "") }
}

/// Waits until `condition` holds, checking every few milliseconds; throws after `timeout`, with
/// what `describe` says of the state then.
///
/// The default is far above what any condition here needs (tenths of a second): the spool
/// `fsync`s, and right after a build has written gigabytes a loaded machine has stalled those
/// calls for seconds. Only a failing test waits that long.
func eventually(
    _ what: String, timeout: Duration = .seconds(30), describe: (() async -> String)? = nil,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what, saw: await describe?()) }
        try await Task.sleep(for: .milliseconds(5))
    }
}
