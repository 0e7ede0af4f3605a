import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``HTTPClient`` over `URLSession` (libcurl on Linux). Cancelling the calling task cancels the
/// request at once, so a long-poll ends promptly on shutdown.
final class URLSessionHTTPClient: HTTPClient {
    private let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
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
        let pending = PendingTask()
        let result: Result<HTTPResponse, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        continuation.resume(returning: .failure(error))
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: .success(HTTPResponse(
                            status: response.statusCode, body: data ?? Data(), headers: Self.headers(of: response)
                        )))
                    } else {
                        continuation.resume(returning: .failure(URLError(.badServerResponse)))
                    }
                }
                pending.start(task)
            }
        } onCancel: {
            pending.cancel()
        }
        if Task.isCancelled { throw CancellationError() }
        do {
            return try result.get()
        } catch let error as URLError {
            throw HTTPTransportError(code: error.code, reason: error.localizedDescription)
        }
    }
}

extension URLSessionHTTPClient {
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

/// Holds a data task so that cancellation, which may come before or after it starts, reaches it.
private final class PendingTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func start(_ task: URLSessionDataTask) {
        let alreadyCancelled = lock.withLock {
            self.task = task
            return cancelled
        }
        task.resume()
        if alreadyCancelled { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
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
