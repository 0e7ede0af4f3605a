/// Holds a request until the test is over (its task is cancelled), as a long-poll with nothing
/// to report does; then throws `CancellationError`.
func heldUntilCancelled<Value>() async throws -> Value {
    let (never, continuation) = AsyncStream<Never>.makeStream()
    for await _ in never {}
    withExtendedLifetime(continuation) {}
    throw CancellationError()
}
