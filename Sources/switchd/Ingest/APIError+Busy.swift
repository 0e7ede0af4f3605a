import Hummingbird

extension APIError {
    /// 503 `busy` with `Retry-After` in whole seconds: switchd has more uploads queued than it
    /// holds, stored nothing of this one, and asks for it again after the wait.
    static func ingestBusy(retryAfter wait: Duration) -> APIError {
        let seconds = wait.wholeSecondsRoundedUp
        return APIError(
            .serviceUnavailable, code: "busy",
            message: "switchd has more uploads queued than it holds; nothing of this batch was stored; send it again in \(seconds) s",
            headers: [.retryAfter: String(seconds)]
        )
    }
}
