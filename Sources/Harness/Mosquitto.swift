import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real Mosquitto broker (Debian's `mosquitto`) on a free loopback port, with anonymous
/// access and no persistence: a killed broker comes back empty, as after a crash that lost its
/// state, so whatever a client needs there again it must publish again.
public final class MosquittoBroker: @unchecked Sendable {
    public static let executable = "/usr/sbin/mosquitto"

    public let port: Int
    private let folder: TemporaryFolder
    private let lock = NSLock()
    private var process: ManagedProcess?

    /// A user the broker accepts, and no one else.
    public struct Login: Sendable {
        public var username: String
        public var password: String
        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// Starts the broker and returns once it accepts connections: plain MQTT with anonymous
    /// access by default; MQTT over TLS presenting `tls`; only `login` when one is given
    /// (its password file made with Debian's `mosquitto_passwd`).
    ///
    /// - Throws: ``HarnessError`` when Mosquitto is not installed (`apt install mosquitto
    ///   mosquitto-clients`; scripts/lib.sh installs them), ends before it runs (its listener
    ///   could not be opened) or does not say it runs within ``ManagedProcess``'s usual 30 s.
    public init(tls: SelfSignedCertificate? = nil, login: Login? = nil) async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw HarnessError("no \(Self.executable): install Debian's mosquitto and mosquitto-clients (scripts/lib.sh floorscan_install_deps does)")
        }
        folder = try TemporaryFolder("mosquitto")
        port = try freeLoopbackPort()
        var access = "allow_anonymous true"
        if let login {
            let passwords = folder.path("passwords")
            let made = try await runToEnd(
                at: URL(fileURLWithPath: "/usr/bin/mosquitto_passwd"), ["-b", "-c", passwords, login.username, login.password]
            )
            guard made.status == 0 else { throw HarnessError("mosquitto_passwd: \(made.standardError)") }
            access = "allow_anonymous false\npassword_file \(passwords)"
        }
        let encryption = tls.map { "certfile \($0.certificatePath)\nkeyfile \($0.keyPath)\n" } ?? ""
        // Run as whoever runs the tests: started as root, Mosquitto would otherwise switch to its
        // own user once it has read a password file, and then could not write into the folder.
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) }.map { "user \($0)\n" } ?? ""
        // No cap on a subscriber's queue: Mosquitto's default (1000) drops QoS 1 messages for a
        // subscriber slower than a burst, which is the broker's choice, not the publisher's loss.
        let config = """
            listener \(port) 127.0.0.1
            \(user)\(encryption)\(access)
            persistence false
            max_queued_messages 0
            log_dest file \(folder.path("mosquitto.log"))
            log_dest stdout

            """
        try config.write(toFile: folder.path("mosquitto.conf"), atomically: true, encoding: .utf8)
        try await start()
    }

    /// Starts the broker again on the same port after ``kill()``.
    ///
    /// - Throws: ``HarnessError`` as ``init(tls:login:)`` does.
    public func start() async throws {
        // Mosquitto writes its standard output in blocks when it is a pipe; stdbuf makes it
        // write each line as it logs it, so its "running" line arrives when it is said.
        let started = try ManagedProcess(
            name: "mosquitto", executable: URL(fileURLWithPath: "/usr/bin/stdbuf"),
            arguments: ["-oL", Self.executable, "-c", folder.path("mosquitto.conf")],
            stderrPath: folder.path("stderr.log")
        )
        lock.withLock { process = started }
        try await waitUntilRunning(started)
    }

    /// Returns once Mosquitto logs that it runs, which it does only after opening its listener;
    /// when the listener cannot be opened (the port taken meanwhile) it ends instead, and the wait
    /// ends with it (the output reader sees the end), not at the deadline.
    private func waitUntilRunning(_ started: ManagedProcess) async throws {
        do {
            _ = try await started.waitForLine { $0.hasSuffix(" running") }
        } catch {
            await started.kill()
            throw HarnessError("mosquitto on port \(port) did not start: \(error)\n\(started.stderrTail())\n\(log)")
        }
    }

    /// SIGKILL, as a crash: clients see their connection drop, and no will is lost.
    public func kill() async {
        let running = lock.withLock { process }
        await running?.kill()
    }

    /// Stops the broker (SIGKILL: a child of the test runner may inherit SIGTERM ignored) and
    /// removes its folder.
    public func remove() async {
        let running = lock.withLock { process }
        await running?.kill()
        folder.remove()
    }

    /// A test that failed before ``remove()`` leaves no broker behind.
    deinit {
        process?.signal(SIGKILL)
    }

    /// What the broker logged, for failure messages.
    public var log: String {
        (try? String(contentsOfFile: folder.path("mosquitto.log"), encoding: .utf8)) ?? ""
    }
}

/// A loopback TCP port nothing listens on right now (the kernel's pick for port 0).
///
/// - Throws: ``HarnessError`` when no socket can be bound.
public func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
        }
    }
    guard bound else { throw HarnessError("bind: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
}
