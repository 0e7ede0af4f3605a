import Foundation
import Glibc

/// A minimal HTTP/1.1 server on 127.0.0.1 for testing the real URLSession client: one thread
/// accepts, one thread per connection reads a request (headers and a Content-Length body) and
/// answers it, then closes the connection. A handler returning nil never answers (the
/// connection stays open until ``stop()``), like a long-poll with nothing to say.
///
/// A socket is closed only by the thread that uses it, once it is done: tests run in parallel,
/// and a descriptor closed under a thread still about to `accept` on it may already be another
/// test's listener, whose connections that thread would then steal.
final class LoopbackHTTPServer: @unchecked Sendable {
    struct Request: Sendable {
        var method: String
        var target: String
        var headers: [String: String]
        var body: Data
    }

    typealias Handler = @Sendable (Request) -> (status: Int, body: Data)?

    let port: UInt16
    private let listener: CInt
    private let handler: Handler
    private let lock = NSLock()
    private var held: [CInt] = []
    private var received: [Request] = []
    private var stopped = false

    init(_ handler: @escaping Handler) throws {
        self.handler = handler
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptConnections() }
        thread.start()
    }

    var requests: [Request] { lock.withLock { received } }

    /// Stops accepting and drops every connection still held. Shutting the listener down ends
    /// the accept loop, which then closes it.
    func stop() {
        let connections = lock.withLock {
            stopped = true
            defer { held = [] }
            return held
        }
        shutdown(listener, Int32(SHUT_RDWR))
        for connection in connections {
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }

    private func acceptConnections() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: CInt) {
        guard let request = read(from: connection) else {
            close(connection)
            return
        }
        lock.withLock { received.append(request) }
        guard let (status, body) = handler(request) else {
            let keep = lock.withLock {
                if !stopped { held.append(connection) }
                return !stopped
            }
            if !keep { close(connection) }
            return
        }
        var response = Data("HTTP/1.1 \(status) Test\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
        response.append(body)
        _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(connection)
    }

    private func read(from connection: CInt) -> Request? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let separator = Data("\r\n\r\n".utf8)
        func receiveMore() -> Bool {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        while buffer.range(of: separator) == nil {
            guard receiveMore() else { return nil }
        }
        let headerEnd = buffer.range(of: separator)!
        let lines = String(decoding: buffer[..<headerEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count - headerEnd.upperBound < length {
            guard receiveMore() else { return nil }
        }
        let body = buffer[headerEnd.upperBound..<(headerEnd.upperBound + length)]
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: Data(body))
    }
}
