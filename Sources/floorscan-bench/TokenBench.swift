import Dispatch
import Foundation
import NIOHTTP1
import Harness
import ScanContract

/// What a token check costs with few tokens stored and with many: the same authenticated
/// request (`GET /v1/scanners/default/switch` with a reader token), timed with 10 tokens stored
/// and again once 10,000 are.
struct TokenBench {
    var fewTokens = 10
    var manyTokens = 10_000
    var requests = 2_000
    var concurrency = 4

    struct Result {
        var fewTokens: Int
        var manyTokens: Int
        var few: Stats
        var many: Stats
        var fewPerSecond: Double
        var manyPerSecond: Double
    }

    func run(in folder: TemporaryFolder) async throws -> Result {
        let switchd = try await SwitchdInstance.start(in: folder, arguments: ["--log-level", "warning"], label: "switchd-tokens", stateName: "switchd-tokens")
        defer { switchd.process.signal(SIGKILL) }
        let reader = try await switchd.issueToken(NewToken(name: "bench reader", role: .reader))
        let result = try await withFleetHTTP(baseURL: switchd.baseURL, connections: 64) { http in
            // The admin token and the reader are stored already.
            try await issue(fewTokens - 2, http, admin: switchd.adminToken)
            print("token checks: \(requests) requests with \(fewTokens) tokens stored …")
            let (few, fewRate) = try await time(http, token: reader)
            print("token checks: storing \(manyTokens - fewTokens) more tokens …")
            try await issue(manyTokens - fewTokens, http, admin: switchd.adminToken)
            print("token checks: \(requests) requests with \(manyTokens) tokens stored …")
            let (many, manyRate) = try await time(http, token: reader)
            return Result(fewTokens: fewTokens, manyTokens: manyTokens, few: few, many: many, fewPerSecond: fewRate, manyPerSecond: manyRate)
        }
        await switchd.process.terminate()
        return result
    }

    private func issue(_ count: Int, _ http: FleetHTTP, admin: String) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                if index >= 32 { try await group.next() }
                group.addTask {
                    let body = try JSONCoding.encoder().encode(NewToken(name: "bench \(index)", role: .reader))
                    let answer = try await http.send(.POST, "/v1/tokens", token: admin, body: body)
                    guard answer.status == 201 else { throw HarnessError("POST /v1/tokens answered \(answer.status)") }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Per-request latencies (ms) and requests per second, `concurrency` at a time.
    private func time(_ http: FleetHTTP, token: String) async throws -> (Stats, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<concurrency {
                let share = requests / concurrency + (worker < requests % concurrency ? 1 : 0)
                group.addTask {
                    var latencies: [Double] = []
                    for _ in 0..<share {
                        let sent = DispatchTime.now().uptimeNanoseconds
                        let answer = try await http.send(.GET, "/v1/scanners/default/switch", token: token)
                        guard answer.status == 200 else { throw HarnessError("GET switch answered \(answer.status)") }
                        latencies.append(milliseconds(from: sent, to: DispatchTime.now().uptimeNanoseconds))
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let seconds = milliseconds(from: start, to: DispatchTime.now().uptimeNanoseconds) / 1000
        return (Stats(latencies), Double(latencies.count) / seconds)
    }
}
