import DaemonSupport
import Foundation
import ScanContract

/// A running `switchd` on loopback with its own state folder.
public struct SwitchdInstance: Sendable {
    public let process: ManagedProcess
    public let port: Int
    public let stateDir: String
    /// The admin token switchd made on its first start in this state folder (`admin.token`).
    public let adminToken: String
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// A client sending the admin token.
    public func adminClient() -> APIClient {
        APIClient(baseURL: baseURL, token: adminToken)
    }

    /// Issues a token through the API as admin and returns its secret.
    public func issueToken(_ new: NewToken) async throws -> String {
        try await adminClient().issueToken(new)
    }

    /// Issues a scanner token for `scannerID`, as scannerd's `--token-file` needs.
    public func issueScannerToken(_ scannerID: String = ScannerID.default.rawValue, name: String) async throws -> String {
        try await issueToken(NewToken(name: name, role: .scanner, scannerID: try ScannerID(scannerID)))
    }

    /// Starts switchd on the port the kernel gives it (`--port 0`) and waits until it says
    /// where it listens. A given `port` (one a killed switchd had) lets a restarted switchd come
    /// back where its scanners look for it.
    /// Instances with the same `stateName` in one folder share a database (a restart).
    /// `openFileLimit` starts switchd under `prlimit --nofile=N:N` (its `LimitNOFILE=`), or
    /// `--nofile=N:H` with an `openFileHardLimit` H (a login shell's soft limit below its hard one).
    /// An `adminTokenFile` is given as `--admin-token-file` and is where the admin token is read
    /// (instances sharing one PostgreSQL database share one admin token that way).
    public static func start(
        in folder: TemporaryFolder, port: Int? = nil, arguments: [String] = [], label: String = "switchd", stateName: String = "switchd-state",
        openFileLimit: Int? = nil, openFileHardLimit: Int? = nil, adminTokenFile: String? = nil
    ) async throws -> SwitchdInstance {
        let stateDir = folder.path(stateName)
        let switchdArguments = ["--host", "127.0.0.1", "--port", String(port ?? 0), "--state-dir", stateDir]
            + (adminTokenFile.map { ["--admin-token-file", $0] } ?? []) + arguments
        let switchd = try Binaries.url("switchd")
        // prlimit sets the limit on itself, then executes switchd in its place (same process ID).
        let (executable, allArguments) = openFileLimit.map { limit in
            (URL(fileURLWithPath: "/usr/bin/prlimit"), ["--nofile=\(limit):\(openFileHardLimit ?? limit)", "--", switchd.path] + switchdArguments)
        } ?? (switchd, switchdArguments)
        let process = try ManagedProcess(
            name: label, executable: executable,
            arguments: allArguments,
            stderrPath: folder.path("\(label)-\(UUID().uuidString.prefix(6)).stderr")
        )
        let adminToken: String
        let boundPort: Int
        do {
            boundPort = try await listeningPort(of: process)
            adminToken = try readToken(adminTokenFile ?? URL(fileURLWithPath: stateDir).appendingPathComponent("admin.token").path)
        } catch {
            await process.kill()
            throw HarnessError("\(error); stderr:\n\(process.stderrTail())")
        }
        return SwitchdInstance(process: process, port: boundPort, stateDir: stateDir, adminToken: adminToken)
    }
}

/// The port a starting switchd says it listens on (`switchd listening on http://HOST:PORT`).
/// Throws when switchd ends first, or says nothing of the kind within a minute.
public func listeningPort(of switchd: ManagedProcess) async throws -> Int {
    let prefix = "switchd listening on "
    let line = try await switchd.waitForLine(timeout: .seconds(60)) { $0.hasPrefix(prefix) }
    guard let url = URLComponents(string: String(line.dropFirst(prefix.count))), let port = url.port else {
        throw HarnessError("switchd said where it listens in a way not understood: \(line)")
    }
    return port
}

/// A running `scannerd` on the simulated radio, writing its event lines to a file.
public struct ScannerdInstance: Sendable {
    public let process: ManagedProcess
    public let eventsPath: String
    /// The scanner token it sends switchd.
    public let token: String

    /// Starts scannerd with `token`, or without one with a scanner token for `scannerID` issued
    /// on `switchd` as admin (which must then be running).
    public static func start(
        in folder: TemporaryFolder, switchd: SwitchdInstance, scannerID: String = "default", token: String? = nil,
        eventsPath: String? = nil, arguments: [String] = [], label: String = "scannerd"
    ) async throws -> ScannerdInstance {
        // The state folder does not depend on the label: a restarted scannerd must find the
        // journal and batches its killed predecessor left.
        let eventsPath = eventsPath ?? folder.path("\(label)-events.jsonl")
        let token = if let token { token } else { try await switchd.issueScannerToken(scannerID, name: label) }
        let tokenPath = try writeTokenFile(token, in: folder, label: label)
        let process = try ManagedProcess(
            name: label, executable: try Binaries.url("scannerd"),
            arguments: [
                "run", "--switchd", switchd.baseURL.absoluteString, "--scanner-id", scannerID, "--token-file", tokenPath,
                "--state-dir", folder.path("scannerd-state"), "--radio", "simulated", "--events", eventsPath,
            ] + arguments,
            stderrPath: folder.path("\(label)-\(UUID().uuidString.prefix(6)).stderr")
        )
        return ScannerdInstance(process: process, eventsPath: eventsPath, token: token)
    }

    /// Every event scannerd has written so far (across restarts, when they share the file).
    public func events() -> [ScannerEvent] {
        ScannerEvent.read(from: eventsPath)
    }

    /// Waits until an event satisfying `matches` has been written.
    public func waitForEvent(timeout: Duration = .seconds(60), where matches: (ScannerEvent) -> Bool) async throws -> ScannerEvent {
        try await waitForEvents(atLeast: 1, timeout: timeout, where: matches)[0]
    }

    /// Waits until `count` events satisfying `matches` have been written (by any scannerd writing
    /// to the same file), and returns all of them. Reads the file every few milliseconds; throws
    /// on timeout or when scannerd exits first.
    public func waitForEvents(atLeast count: Int, timeout: Duration = .seconds(60), where matches: (ScannerEvent) -> Bool) async throws -> [ScannerEvent] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = events().filter(matches)
            if found.count >= count { return found }
            if !process.isRunning { throw HarnessError("scannerd exited; stderr:\n\(process.stderrTail())") }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw HarnessError("scannerd wrote fewer than \(count) matching events within \(timeout); stderr:\n\(process.stderrTail())")
    }
}

/// Writes `token` to a new 0600 file in `folder` and returns its path, for `--token-file`.
public func writeTokenFile(_ token: String, in folder: TemporaryFolder, label: String) throws -> String {
    let path = folder.path("\(label)-\(UUID().uuidString.prefix(6)).token")
    guard FileManager.default.createFile(atPath: path, contents: Data(token.utf8), attributes: [.posixPermissions: 0o600]) else {
        throw HarnessError("cannot write \(path)")
    }
    return path
}

/// The first line of a token file.
public func readToken(_ path: String) throws -> String {
    do {
        return try TokenFileText.read(path)
    } catch {
        throw HarnessError("\(path) \(error)")
    }
}

/// One line of scannerd's `--events` log.
public struct ScannerEvent: Decodable, Sendable {
    public var event: String
    public var monotonicNs: UInt64
    public var revision: Int?
    public var scanning: Bool?
    public var batchID: UUID?
    public var count: Int?
    public var ids: [UUID]?
    public var stored: Int?
    /// Of a `sightings` event: the sightings switchd did not know.
    public var ignored: Int?
    public var duplicate: Bool?
    public var status: Int?
    /// Of a `positioned` event: the position computed on the device.
    public var position: NewPosition?
    /// Of a `settings` event: the settings revision from switchd applied (absent: the local settings),
    /// every setting in effect, and those not applied with why.
    public var settingsRevision: Int?
    public var settings: ScannerSettings?
    public var unapplied: [String: String]?

    /// Reads an event file; a torn last line (the writer was killed mid-line) is skipped.
    public static func read(from path: String) -> [ScannerEvent] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONCoding.decoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
            try? decoder.decode(ScannerEvent.self, from: Data(line))
        }
    }
}
