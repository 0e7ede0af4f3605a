import ArgumentParser
import Harness

extension BenchCommand {
    /// `GET /v1/dashboard` over histories of different sizes with the same recent traffic.
    struct DashboardHistory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dashboard",
            abstract: "GET /v1/dashboard timed over a small and a large stored history with the same recent traffic."
        )

        @Option(help: "Batches and positions kept, one history per value.")
        var rows: [Int] = [10_000, 1_000_000]

        @Option(help: "Requests timed per history.")
        var requests = 50

        mutating func run() async throws {
            let folder = try TemporaryFolder("bench-dashboard")
            defer { folder.remove() }
            print("floorscan dashboard benchmark — binaries from \(Binaries.directory.path)")
            let results = try await DashboardBench(sizes: rows, requests: requests).run(in: folder)
            DashboardBench.report(results, requests: requests)
        }
    }
}
