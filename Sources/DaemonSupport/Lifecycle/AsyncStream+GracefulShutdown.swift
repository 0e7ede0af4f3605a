extension AsyncStream where Element: Sendable {
    /// This stream's elements until the graceful shutdown of the service iterating it begins; then
    /// the iteration ends (returns nil), while the loop body in progress goes on undisturbed.
    /// `bufferingPolicy` is the returned stream's, as for the stream it forwards.
    public func endingAtGracefulShutdown(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        let (forwarded, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        // Inherits the task-local GracefulShutdown of the caller; ends with the stream or the shutdown.
        let forwarding = Task { [self] in
            _ = try? await GracefulShutdown.cancelling {
                for await element in self { continuation.yield(element) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarding.cancel() }
        return forwarded
    }
}
