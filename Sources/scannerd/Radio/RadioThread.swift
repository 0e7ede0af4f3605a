#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs a radio's blocking socket work on a thread of its own, never on Swift's cooperative pool.
/// The work sees a ``StopSignal`` and must return soon after it is set; its blocking calls use
/// `poll()` with short timeouts for that.
enum RadioThread {
    /// A stream fed by `body` on a new thread. Ending the iteration (or cancelling the iterating
    /// task) sets the stop signal; the stream finishes when `body` returns, with its error if it throws.
    /// The returned signal stops it too, and lets a caller wait for the stream to finish after its cleanup.
    static func stream<Element: Sendable>(
        name: String,
        _ body: @escaping @Sendable (StopSignal, (Element) -> Void) throws -> Void
    ) -> (AsyncThrowingStream<Element, any Error>, StopSignal) {
        let stop = StopSignal()
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        continuation.onTermination = { _ in stop.stop() }
        do {
            try OSThread.start(name: name) {
                do {
                    try body(stop) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        } catch {
            continuation.finish(throwing: error)
        }
        return (stream, stop)
    }

    /// Runs `body` on a new thread and returns its result. Cancelling the calling task sets the
    /// stop signal `body` sees.
    static func run<Result: Sendable>(name: String, _ body: @escaping @Sendable (StopSignal) throws -> Result) async throws -> Result {
        let stop = StopSignal()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                do {
                    try OSThread.start(name: name) {
                        continuation.resume(with: Swift.Result { try body(stop) })
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            stop.stop()
        }
    }

    /// Readings a slow consumer has not taken yet; beyond this the oldest are dropped.
    static let bufferLimit = 4096
}
