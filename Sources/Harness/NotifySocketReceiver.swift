import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real AF_UNIX datagram socket standing in for systemd's notify socket, bound to a file in a
/// fresh temporary folder or to an abstract name: pass ``notifySocket`` as `NOTIFY_SOCKET` to
/// the code under test and read what it sent.
///
/// Like systemd, it reads messages as they come (on a thread of its own), so a sender is never
/// held up by a full queue (the kernel queues only a few datagrams per unix socket).
public final class NotifySocketReceiver: Sendable {
    /// What to put in `NOTIFY_SOCKET`: a path, or `@name` for an abstract socket.
    public let notifySocket: String
    private let folder: URL?
    private let inbox: Inbox

    /// Throws when the socket cannot be made or bound. With `reads` false nothing reads the
    /// socket: its queue fills after a few datagrams, as a stuck systemd's would.
    public init(abstract: Bool = false, reads: Bool = true) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket: errno \(errno)") }
        var bytes: [UInt8]
        if abstract {
            notifySocket = "@floorscan-test-\(UUID().uuidString)"
            bytes = Array(notifySocket.utf8)
            bytes[0] = 0
            folder = nil
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            notifySocket = folder.appendingPathComponent("notify").path
            bytes = Array(notifySocket.utf8) + [0]
            self.folder = folder
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            let error = errno
            close(descriptor)
            throw HarnessError("bind \(notifySocket): errno \(error)")
        }
        inbox = Inbox(descriptor: descriptor, reads: reads)
        if reads {
            Thread.detachNewThread { [inbox] in inbox.readUntilStopped() }
        }
    }

    deinit {
        inbox.stop()
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Every message received so far, oldest first.
    public func messages() -> [String] {
        inbox.messages()
    }

    /// Waits until a received message satisfies `matches` and returns it: `matches` is asked
    /// again as each message arrives. Throws after `timeout` without one.
    public func waitForMessage(timeout: Duration = .seconds(60), where matches: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = inbox.news.current
            if let message = messages().first(where: matches) { return message }
            guard await inbox.news.wait(after: seen, before: deadline) else {
                throw HarnessError("no matching notify message within \(timeout); got \(messages())")
            }
        }
    }
}

/// The socket and what its reader thread has read from it.
private final class Inbox: @unchecked Sendable {
    private let descriptor: Int32
    private let reads: Bool
    private let lock = NSLock()
    private var received: [String] = []
    /// Announced on every message read.
    let news = Wakeups()
    private var stopping = false
    private let readerDone = DispatchSemaphore(value: 0)

    init(descriptor: Int32, reads: Bool) {
        self.descriptor = descriptor
        self.reads = reads
        // Wakes the reader every 50 ms to see whether it should stop.
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func messages() -> [String] {
        lock.withLock { received }
    }

    func readUntilStopped() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !lock.withLock({ stopping }) {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                let message = String(decoding: buffer[..<count], as: UTF8.self)
                lock.withLock { received.append(message) }
                news.announce()
            }
        }
        readerDone.signal()
    }

    /// Ends the reader thread, then closes the socket.
    func stop() {
        lock.withLock { stopping = true }
        if reads { readerDone.wait() }
        close(descriptor)
    }
}
