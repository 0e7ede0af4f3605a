/// Waits until the calling task is cancelled (a request held as a long-poll with nothing to
/// report is, or a service that only stops), then throws `CancellationError`.
public func heldUntilCancelled<Value>() async throws -> Value {
    let (never, continuation) = AsyncStream<Never>.makeStream()
    for await _ in never {}
    withExtendedLifetime(continuation) {}
    throw CancellationError()
}
