import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One server-sent event.
public struct ServerSentEvent: Sendable, Equatable {
    public var id: String?
    public var event: String
    public var data: String
}

/// Reads a `text/event-stream` response as it arrives (URLSession's streaming delegate, libcurl on
/// Linux) and hands out complete events in order.
public final class EventStreamClient: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var buffer = Data()
    private var events: [ServerSentEvent] = []
    private var current = ServerSentEvent(id: nil, event: "message", data: "")
    private var hasData = false
    private var status: Int?
    private var ended: (any Error)?
    private var endedCleanly = false
    private var session: URLSession!
    private var task: URLSessionDataTask!

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

    /// Waits until at least `count` events have arrived; throws on timeout or when the stream ends first.
    public func waitForEvents(_ count: Int, timeout: Duration = .seconds(30)) async throws -> [ServerSentEvent] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (current, error, clean) = lock.withLock { (events, ended, endedCleanly) }
            if current.count >= count { return current }
            if let error { throw HarnessError("event stream failed after \(current.count) events: \(error)") }
            if clean { throw HarnessError("event stream ended after \(current.count) of \(count) events") }
            if ContinuousClock.now >= deadline { throw HarnessError("only \(current.count) of \(count) events within \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.withLock { status = (response as? HTTPURLResponse)?.statusCode }
        completionHandler(.allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock {
            buffer.append(data)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if line.hasSuffix("\r") { line.removeLast() }
                handle(line)
            }
        }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.withLock {
            if let error { ended = error } else { endedCleanly = true }
        }
    }

    /// The event-stream line rules: a blank line dispatches, `:` starts a comment.
    private func handle(_ line: String) {
        if line.isEmpty {
            if hasData { events.append(current) }
            current = ServerSentEvent(id: current.id, event: "message", data: "")
            hasData = false
            return
        }
        if line.hasPrefix(":") { return }
        let field: Substring
        var value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.hasPrefix(" ") { value = value.dropFirst() }
        } else {
            field = Substring(line)
            value = ""
        }
        switch field {
        case "id": current.id = String(value)
        case "event": current.event = String(value)
        case "data":
            current.data += hasData ? "\n" + value : String(value)
            hasData = true
        default: break
        }
    }
}
