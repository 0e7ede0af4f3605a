extension Task where Success == Void, Failure == any Error {
    /// Cancels the task and waits for it to end, rethrowing what it threw: whatever it was in
    /// the middle of (the uploader deleting a batch it has just said is acknowledged) is done.
    func stopped() async throws {
        cancel()
        try await value
    }
}
