import Foundation
import Glibc
import Harness

/// A minimal HTTP/1.1 server on 127.0.0.1 for testing the real HTTP client: one thread
/// accepts, one thread per connection reads a request (headers and a Content-Length body) and
/// answers it, then closes the connection, or, ``init(keepingAlive:replying:)``, reads the next
/// request on it (``connectionsAccepted`` then tells whether the client reused one). A handler returning nil never answers (the
/// connection stays open until ``stop()``), like a long-poll with nothing to say. A hostile
/// handler (``init(replying:)``) can also stream an answer of any length, generated as it is
/// sent and never held whole, quickly or a few bytes at a time. A test waits for requests to
/// arrive and streams to end with ``requestsArrived`` and ``streamsFinished``, never by polling.
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

    /// What to send back.
    enum Reply: Sendable {
        /// A whole answer.
        case answer(status: Int, body: Data)
        /// A 200 whose body is `length` bytes of JSON-ish filler, sent in `chunk`-byte writes; its
        /// `Content-Length` is declared or, when not, the end of the body is the end of the
        /// connection. `paced`: after the first write, each further one waits for the test's
        /// ``releaseChunks(_:)`` (a trickling peer whose pace the test sets, with no time passing).
        case stream(length: Int, declaringLength: Bool, chunk: Int = 64 * 1024, paced: Bool = false)
        /// Nothing, until ``stop()``.
        case silence
    }

    let port: UInt16
    private let listener: CInt
    private let handler: @Sendable (Request) -> Reply
    private let keepingAlive: Bool
    /// Kept-alive connections their thread is reading; ``stop()`` shuts them down, the thread closes them.
    private var alive: Set<CInt> = []
    private var accepted = 0
    private let lock = NSLock()
    private var held: [CInt] = []
    private var received: [Request] = []
    private var stopped = false
    private var streamed = 0
    /// Released writes of paced streams; ``stop()`` releases them all.
    private let pace = DispatchSemaphore(value: 0)
    /// Requests read whole, counted once ``requests`` holds them.
    let requestsArrived = WaitableCount()
    /// Streamed answers finished: sent whole, or the client hung up; counted once the
    /// connection is closed and ``bytesStreamed`` has all of it.
    let streamsFinished = WaitableCount()
    /// Writes of streamed answers the kernel took, over all connections.
    let chunksSent = WaitableCount()

    convenience init(_ handler: @escaping Handler) throws {
        try self.init(replying: { request in
            handler(request).map { .answer(status: $0.status, body: $0.body) } ?? .silence
        })
    }

    init(keepingAlive: Bool = false, replying handler: @escaping @Sendable (Request) -> Reply) throws {
        self.handler = handler
        self.keepingAlive = keepingAlive
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
    /// Connections accepted so far.
    var connectionsAccepted: Int { lock.withLock { accepted } }
    /// Body bytes of streamed answers the kernel took from this server, over all connections.
    var bytesStreamed: Int { lock.withLock { streamed } }

    /// Lets paced streams make `count` more writes.
    func releaseChunks(_ count: Int) {
        for _ in 0..<count { pace.signal() }
    }

    /// Stops accepting and drops every connection still held. Shutting the listener down ends
    /// the accept loop, which then closes it.
    func stop() {
        let connections = lock.withLock {
            stopped = true
            for connection in alive { shutdown(connection, Int32(SHUT_RDWR)) }
            defer { held = [] }
            return held
        }
        shutdown(listener, Int32(SHUT_RDWR))
        releaseChunks(1024)
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
            lock.withLock { accepted += 1 }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: CInt) {
        if keepingAlive {
            let open = lock.withLock {
                if !stopped { alive.insert(connection) }
                return !stopped
            }
            guard open else {
                close(connection)
                return
            }
        }
        guard let request = read(from: connection) else {
            lock.withLock { _ = alive.remove(connection) }
            close(connection)
            return
        }
        lock.withLock { received.append(request) }
        requestsArrived.add()
        let reply = handler(request)
        if case .answer = reply, keepingAlive {
            // Read on while the client keeps the connection.
        } else {
            lock.withLock { _ = alive.remove(connection) }
        }
        switch reply {
        case .silence:
            let keep = lock.withLock {
                if !stopped { held.append(connection) }
                return !stopped
            }
            if !keep { close(connection) }
        case .answer(let status, let body):
            let connectionHeader = keepingAlive ? "keep-alive" : "close"
            var response = Data("HTTP/1.1 \(status) Test\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: \(connectionHeader)\r\n\r\n".utf8)
            response.append(body)
            _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if keepingAlive { return serve(connection) }
            close(connection)
        case .stream(let length, let declaringLength, let chunk, let paced):
            stream(length, declaringLength: declaringLength, chunk: chunk, paced: paced, to: connection)
            close(connection)
            streamsFinished.add()
        }
    }

    /// Sends the head and then filler until `length` bytes are sent or the client hangs up.
    private func stream(_ length: Int, declaringLength: Bool, chunk: Int, paced: Bool, to connection: CInt) {
        let lengthHeader = declaringLength ? "Content-Length: \(length)\r\n" : ""
        let head = Data("HTTP/1.1 200 Test\r\nContent-Type: application/json\r\n\(lengthHeader)Connection: close\r\n\r\n".utf8)
        guard head.withUnsafeBytes({ send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == head.count else { return }
        let filler = [UInt8](repeating: UInt8(ascii: " "), count: chunk)
        var left = length
        var writes = 0
        while left > 0 {
            if paced, writes > 0 {
                pace.wait()
                if lock.withLock({ stopped }) { return }
            }
            let sent = filler.withUnsafeBytes { send(connection, $0.baseAddress, min(left, chunk), Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return }
            left -= sent
            lock.withLock { streamed += sent }
            writes += 1
            chunksSent.add()
        }
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
