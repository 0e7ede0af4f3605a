import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``HTTPClient`` over `URLSession` (libcurl on Linux).
///
/// Every client shares one session that lives as long as the process: FoundationNetworking's
/// libcurl multi-handle has known races when a session is torn down while others run, and a
/// daemon that never tears one down never meets them. Each request ends at the first of three
/// things — libcurl's answer, the calling task's cancellation, or a deadline a little past the
/// request's timeout — so neither a shutdown nor a wedged transfer can hold scannerd up.
final class URLSessionHTTPClient: HTTPClient {
    private static let sharedSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    private let session: URLSession
    private let deadline: @Sendable (Duration) -> Duration

    /// - Parameter deadline: how long a request with the given timeout may take before the client
    ///   gives up on libcurl and fails it as timed out; libcurl's own timeout normally comes first.
    init(deadline: @escaping @Sendable (Duration) -> Duration = { $0 + .seconds(5) }) {
        session = Self.sharedSession
        self.deadline = deadline
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let urlRequest = Self.urlRequest(for: request)
        let exchange = Exchange()
        let limit = deadline(request.timeout)
        let watchdog = Task {
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { exchange.end(.expired) }
        }
        defer { watchdog.cancel() }
        let ending = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.begin(continuation) { [session] in
                    session.dataTask(with: urlRequest) { data, response, error in
                        exchange.end(.answered(Self.result(data, response, error)))
                    }
                }
            }
        } onCancel: {
            exchange.end(.cancelled)
        }
        switch ending {
        case .answered(let result):
            do {
                return try result.get()
            } catch let error as URLError {
                throw HTTPTransportError(code: error.code, reason: error.localizedDescription)
            }
        case .cancelled:
            throw CancellationError()
        case .expired:
            throw HTTPTransportError(code: .timedOut, reason: "no answer from \(request.url.host ?? "the server") within \(limit)")
        }
    }
}

extension URLSessionHTTPClient {
    static func urlRequest(for request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeout.seconds)
        urlRequest.httpMethod = request.method.rawValue
        if let body = request.body {
            urlRequest.httpBody = body
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        return urlRequest
    }

    static func result(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) -> Result<HTTPResponse, any Error> {
        if let error { return .failure(error) }
        guard let response = response as? HTTPURLResponse else { return .failure(URLError(.badServerResponse)) }
        return .success(HTTPResponse(status: response.statusCode, body: data ?? Data(), headers: headers(of: response)))
    }

    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String {
                headers[name.lowercased()] = value
            }
        }
        return headers
    }
}

/// The request did not get an answer: refused, reset, timed out, name not found.
struct HTTPTransportError: Error, CustomStringConvertible {
    let code: URLError.Code
    /// libcurl's words, e.g. "Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server".
    let reason: String

    var description: String { reason }
}

/// One request in flight. The first ending wins and resumes the waiting caller at once; an
/// ending other than the answer also cancels the data task, which may start after it.
private final class Exchange: @unchecked Sendable {
    enum Ending: Sendable {
        case answered(Result<HTTPResponse, any Error>)
        case cancelled
        case expired
    }

    private let lock = NSLock()
    private var continuation: CheckedContinuation<Ending, Never>?
    private var task: URLSessionDataTask?
    private var ending: Ending?

    func begin(_ continuation: CheckedContinuation<Ending, Never>, makeTask: () -> URLSessionDataTask) {
        lock.lock()
        if let ending {
            lock.unlock()
            continuation.resume(returning: ending)
            return
        }
        let task = makeTask()
        self.continuation = continuation
        self.task = task
        lock.unlock()
        task.resume()
    }

    func end(_ ending: Ending) {
        let (continuation, task): (CheckedContinuation<Ending, Never>?, URLSessionDataTask?) = lock.withLock {
            guard self.ending == nil else { return (nil, nil) }
            self.ending = ending
            defer { self.continuation = nil }
            return (self.continuation, self.task)
        }
        continuation?.resume(returning: ending)
        if case .answered = ending { return }
        task?.cancel()
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's time intervals count.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
