import Foundation
import Harness
import Testing

/// switchd on `--port 0` says where the kernel put it: in its port file and on standard output.
@Suite("End to end: the port switchd got")
struct PortFileTests {
    @Test func portZeroIsAnnouncedInThePortFileAndOnStandardOutput() async throws {
        let folder = try TemporaryFolder("port-file")
        defer { folder.remove() }
        let portFile = folder.path("run/switchd.port")
        try FileManager.default.createDirectory(atPath: folder.path("run"), withIntermediateDirectories: true)
        let process = try ManagedProcess(
            name: "switchd", executable: try Binaries.url("switchd"),
            arguments: ["--host", "127.0.0.1", "--port", "0", "--port-file", portFile, "--state-dir", folder.path("state")],
            stderrPath: folder.path("switchd.stderr")
        )
        defer { process.signal(SIGKILL) }
        let port = try await listeningPort(of: process)
        #expect(port > 0)
        // Written before the line is printed.
        #expect(try String(contentsOfFile: portFile, encoding: .utf8) == "\(port)\n")
        let api = APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!)
        #expect(try await api.send("GET", "/healthz").status == 200)
        #expect(await process.terminate() == 0)
    }
}
