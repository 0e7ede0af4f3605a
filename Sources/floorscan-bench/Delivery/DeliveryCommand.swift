import ArgumentParser
import Foundation
import Harness

extension BenchCommand {
    /// What an integrator waits for: a position's POST to its MQTT message, and presence events
    /// per second through MQTT and through webhooks while several scanners' positions stream in.
    struct Delivery: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delivery",
            abstract: "MQTT latency from a position's POST to a subscriber, and presence events per second through MQTT and webhooks (needs Mosquitto)."
        )

        @Option(help: "Positions posted one at a time, each waited for at the MQTT subscriber.")
        var sequential = 300

        @Option(help: "Scanners posting at once in the burst.")
        var scanners = 8

        @Option(help: "Positions per scanner in the burst, alternating between two rooms (two presence events each).")
        var positionsPerScanner = 150

        @Option(help: "Webhook receivers on loopback, each subscribed to every event of the burst.")
        var webhooks = 1

        mutating func run() async throws {
            let folder = try TemporaryFolder("bench-delivery")
            defer { folder.remove() }
            print("floorscan delivery benchmark — binaries from \(Binaries.directory.path)")
            let figures = try await DeliveryBench(
                sequential: sequential, scanners: scanners, positionsPerScanner: positionsPerScanner, webhooks: webhooks
            ).run(in: folder)
            figures.print()
        }
    }
}
