import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bare TCP connection to 127.0.0.1, for what an HTTP client library will not do: hold a
/// connection open without a request, send half a request, speak HTTP/1.0, send broken framing,
/// and see the moment the server closes.
public final class RawConnection: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var closed = false

    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            Glibc.close(fd)
            throw HarnessError("connect to port \(port): errno \(error)")
        }
    }

    deinit { close() }

    public func close() {
        lock.withLock {
            if !closed { Glibc.close(fd) }
            closed = true
        }
    }

    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw HarnessError("send: errno \(errno)") }
            sent += count
        }
    }

    /// Everything the server sends until it closes the connection; throws when it has not
    /// closed within `timeout`. Waits in `poll`, on a thread of its own.
    public func readUntilClosed(timeout: Duration) async throws -> String {
        try await read(timeout: timeout) { _ in false }
    }

    /// What the server has sent once it holds a complete response head (or once it closed).
    public func readResponseHead(timeout: Duration) async throws -> String {
        try await read(timeout: timeout) { $0.contains("\r\n\r\n") }
    }

    /// Whether the server has closed the connection, without waiting.
    public func isClosedByServer() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    private func read(timeout: Duration, until done: @escaping @Sendable (String) -> Bool) async throws -> String {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            Thread.detachNewThread { [self] in
                continuation.resume(with: Result { try readBlocking(timeout: timeout, until: done) })
            }
        }
    }

    private func readBlocking(timeout: Duration, until done: (String) -> Bool) throws -> String {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if done(text) { return text }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw HarnessError("the server neither closed nor finished within \(timeout); got: \(text.prefix(300))") }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1))
            guard ready >= 0 || errno == EINTR else { throw HarnessError("poll: errno \(errno)") }
            guard ready > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return text }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { return text }
                throw HarnessError("recv: errno \(errno)")
            }
            received += buffer[..<count]
        }
    }
}
