import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import ScanContract

/// `scannerd enrol URL CODE`: adds this Pi to switchd in one step with a one-time code from the
/// admin page (or `POST /v1/enrolments`). It trades the code for this scanner's token, writes the
/// token file (mode 0600, owned by scannerd's user), sets `switchd`, `scanner-id`, `token-file`
/// and the trust (`ca-file` or `pin`) in scannerd's settings file, keeping the rest of it, and
/// restarts the scannerd unit. A wrong, used or expired code writes nothing.
struct EnrolCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrol",
        abstract: "Join switchd with a one-time code from its admin page: fetch this scanner's token, save it and switchd's address, restart scannerd.",
        discussion: """
            Run as root on the Pi: sudo scannerd enrol https://switchd.example:8443 ABCD-EFGH-JKMN --pin sha256//…
            Over https:// give --pin (shown next to the code) or --ca-file (switchd's certificate or the building's CA); \
            without either, the system's trust store. Plain http:// is refused but to a loopback address, as the token would cross the network in clear.
            """
    )

    @Argument(help: "switchd's base URL, as the admin page shows it (https://host:port).", transform: parseURL)
    var url: URL

    @Argument(help: "The enrolment code (XXXX-XXXX-XXXX), as the admin page shows it.")
    var code: String

    @Option(name: .customLong("ca-file"), help: "PEM file of the certificates to trust for switchd (its own certificate, or the building's CA); written to the settings.")
    var caFile: String?

    @Option(help: "switchd's public-key pin (sha256//…), shown next to the code; written to the settings.")
    var pin: String?

    @Option(name: .customLong("config"), help: "scannerd's settings file to update.")
    var configPath = "/etc/floorscan/scannerd.toml"

    @Option(name: .customLong("token-file"), help: "Where to write the token.")
    var tokenFile = "/etc/floorscan/scannerd.token"

    @Option(help: "The user scannerd runs as, who must read the token file (when run as root and the user exists).")
    var owner = "floorscan-scanner"

    @Option(help: "The systemd unit to restart afterwards.")
    var unit = "scannerd.service"

    @Flag(name: .customLong("no-restart"), help: "Do not restart the unit.")
    var noRestart = false

    func validate() throws {
        guard caFile == nil || pin == nil else {
            throw ValidationError("--ca-file and --pin both say whom to trust: give one of them")
        }
        if url.scheme == "http", !Self.isLoopback(url.host ?? "") {
            throw ValidationError("\(url.absoluteString) is plain http: the token would cross the network in clear; use switchd's https:// address")
        }
        do {
            _ = try EnrolmentCodeText.normalised(code)
        } catch {
            throw ValidationError("the code \(error.reason)")
        }
    }

    func run() async throws {
        // Before the code is spent: a code traded for a token that cannot be written is lost.
        for path in [tokenFile, configPath] {
            let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            guard access(folder.isEmpty ? "/" : folder, W_OK) == 0 else {
                throw EnrolError("cannot write \(path) (\(String(cString: strerror(errno)))): run scannerd enrol as root (sudo); the code was not used")
            }
        }
        let http = try CurlHTTPClient.trusting(caFile: caFile, pin: pin, deadline: { $0 + .seconds(5) })
        let enrolment = try await fetchToken(with: http)
        let account = geteuid() == 0 ? ReplacedFile.account(owner) : nil
        try ReplacedFile.write(enrolment.token + "\n", to: tokenFile, mode: 0o600, owner: account)
        print("wrote the token of scanner \(enrolment.scannerID) to \(tokenFile) (mode 0600\(account.map { _ in ", owner \(owner)" } ?? ""))")
        if geteuid() == 0, account == nil {
            print("note: no user \(owner) here: give the token file to the user scannerd runs as")
        }
        try updateSettings(scannerID: enrolment.scannerID)
        print("set switchd, scanner-id, token-file\(caFile != nil ? ", ca-file" : pin != nil ? ", pin" : "") in \(configPath)")
        if noRestart {
            print("not restarting \(unit) (--no-restart)")
        } else {
            restartUnit()
        }
    }

    /// `POST /v1/enrol` with the code; switchd's own words when it refuses.
    private func fetchToken(with http: CurlHTTPClient) async throws -> Enrolment {
        let address = url.appendingPathComponent("v1").appendingPathComponent("enrol")
        let body = try JSONCoding.encoder().encode(EnrolmentRequest(code: code))
        let response: HTTPResponse
        do {
            response = try await http.send(HTTPRequest(.post, address, body: body, timeout: .seconds(30)))
        } catch {
            throw EnrolError("could not reach switchd at \(url.absoluteString): \(error)")
        }
        guard response.status == 201 else {
            let said = (try? JSONCoding.decoder().decode(APIErrorBody.self, from: response.body))?.error.message
            throw EnrolError("switchd refused the code (\(response.status)): \(said ?? String(decoding: response.body.prefix(300), as: UTF8.self))")
        }
        do {
            return try JSONCoding.decoder().decode(Enrolment.self, from: response.body)
        } catch {
            throw EnrolError("switchd's answer is not an enrolment: \(error)")
        }
    }

    /// Sets the keys this Pi now needs in the settings file, keeping everything else.
    private func updateSettings(scannerID: ScannerID) throws {
        var text = (try? String(contentsOfFile: configPath, encoding: .utf8)) ?? "# scannerd's settings (written by scannerd enrol).\n"
        var settings = [("switchd", url.absoluteString), ("scanner-id", scannerID.rawValue), ("token-file", tokenFile)]
        if let caFile { settings.append(("ca-file", caFile)) }
        if let pin { settings.append(("pin", pin)) }
        // The trust this enrolment used replaces any other: scannerd refuses ca-file and pin together,
        // and a stale one would make it distrust this switchd.
        for key in ["ca-file", "pin"] where !settings.contains(where: { $0.0 == key }) {
            text = TOMLSettingEdit.commentingOut(key, in: text)
        }
        for (key, value) in settings {
            text = TOMLSettingEdit.setting(key, to: value, in: text)
        }
        try ReplacedFile.write(text, to: configPath, mode: ReplacedFile.mode(of: configPath) ?? 0o644)
    }

    /// `systemctl restart` of the unit, when systemd runs this machine; what it said otherwise.
    private func restartUnit() {
        guard access("/run/systemd/system", F_OK) == 0 else {
            print("systemd is not running here: start scannerd yourself")
            return
        }
        var pid = pid_t()
        let arguments = ["systemctl", "restart", unit]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawnp(&pid, "systemctl", nil, nil, &argv, environ) == 0 else {
            print("could not run systemctl: restart \(unit) yourself")
            return
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        print(status == 0 ? "restarted \(unit)" : "systemctl restart \(unit) failed: see journalctl -u \(unit)")
    }

    /// Whether `host` is this machine: `localhost`, `::1` or an IPv4 address in 127.0.0.0/8 (an
    /// address, not a name such as `127.0.0.1.example.com`).
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }
}

struct EnrolError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
