import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ScanContract

/// Reads a `text/event-stream` response as it arrives (URLSession's streaming delegate, libcurl on
/// Linux) and hands out complete events in order.
public final class EventStreamClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var parser = ServerSentEventParser()
    private var events: [ServerSentEvent] = []
    private var status: Int?
    private var ended: (any Error)?
    private var endedCleanly = false
    private var session: URLSession!
    private var task: URLSessionDataTask!
    /// Announced after each event and at the stream's end.
    private let news = Wakeups()

    /// Opens the stream at `url`, sending `lastEventID` as `Last-Event-ID` and `token` as the
    /// bearer token when given.
    public init(url: URL, lastEventID: String? = nil, token: String? = nil) {
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 3600
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        var request = URLRequest(url: url)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if let lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        task = session.dataTask(with: request)
        task.resume()
    }

    public func close() {
        task.cancel()
        session.invalidateAndCancel()
    }

    public var received: [ServerSentEvent] { lock.withLock { events } }
    public var httpStatus: Int? { lock.withLock { status } }

    /// Waits until at least `count` events have arrived, woken as each arrives; throws after
    /// `timeout` (a backstop) or when the stream ends first.
    public func waitForEvents(_ count: Int, timeout: Duration = .seconds(60)) async throws -> [ServerSentEvent] {
        try await waitForEvents(timeout: timeout, described: "\(count) events") { $0.count >= count }
    }

    /// Waits until the events arrived so far satisfy `enough`, woken as each arrives, and returns
    /// them; throws after `timeout` (a backstop) or when the stream ends first.
    public func waitForEvents(
        timeout: Duration = .seconds(60), described: String = "the events awaited", until enough: ([ServerSentEvent]) -> Bool
    ) async throws -> [ServerSentEvent] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = news.current
            let (current, error, clean) = lock.withLock { (events, ended, endedCleanly) }
            if enough(current) { return current }
            if let error { throw HarnessError("event stream failed after \(current.count) events: \(error)") }
            if clean { throw HarnessError("event stream ended after \(current.count) events, before \(described)") }
            guard await news.wait(after: seen, before: deadline) else {
                throw HarnessError("\(current.count) events within \(timeout), not \(described)")
            }
        }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.withLock { status = (response as? HTTPURLResponse)?.statusCode }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock {
            for case .event(let event) in parser.parse(data) {
                events.append(event)
            }
        }
        news.announce()
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.withLock {
            if let error { ended = error } else { endedCleanly = true }
        }
        news.announce()
    }
}
