#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DaemonSupport
import Logging
import Synchronization
import Testing

/// The service group scannerd runs its services in: the order of the graceful shutdown, a
/// service ending early, and the stop signal. Every wait here waits for an event.
@Suite(.timeLimit(.minutes(1)))
struct DaemonServiceGroupTests {
    let logger = Logger(label: "test")

    /// Says when it started and when its graceful shutdown reached it; then ends, or throws `failure`.
    struct Recording: DaemonService, CustomStringConvertible {
        let name: String
        let journal: Journal
        var failure: (any Error)?
        var endsAtOnce = false

        var description: String { name }

        func run() async throws {
            journal.note("\(name) started")
            if endsAtOnce { return }
            if let failure { throw failure }
            try await GracefulShutdown.wait()
            journal.note("\(name) stopping")
        }
    }

    /// What the services did, in order, and a stream that hears of each entry.
    final class Journal: Sendable {
        let entries = Mutex<[String]>([])
        let noted: AsyncStream<String>
        private let continuation: AsyncStream<String>.Continuation

        init() {
            (noted, continuation) = AsyncStream.makeStream()
        }

        func note(_ entry: String) {
            entries.withLock { $0.append(entry) }
            continuation.yield(entry)
        }

        /// Returns once `count` entries have been noted in all.
        func waitFor(_ count: Int) async {
            var heard = noted.makeAsyncIterator()
            while entries.withLock({ $0.count }) < count, await heard.next() != nil {}
        }
    }

    struct Broken: Error {}

    @Test func shutsDownTheLastServiceFirstAndWaitsForEach() async throws {
        let journal = Journal()
        let group = DaemonServiceGroup(
            services: ["a", "b", "c"].map { Recording(name: $0, journal: journal) }, signals: [], logger: logger
        )
        let running = Task { try await group.run() }
        await journal.waitFor(3)
        group.triggerGracefulShutdown()
        try await running.value
        #expect(Array(journal.entries.withLock { $0 }.suffix(3)) == ["c stopping", "b stopping", "a stopping"])
    }

    @Test func aServiceEndingBeforeTheShutdownStopsTheOthersAndFailsTheGroup() async throws {
        let journal = Journal()
        let services: [any DaemonService] = [
            Recording(name: "a", journal: journal), Recording(name: "quitter", journal: journal, endsAtOnce: true),
        ]
        let group = DaemonServiceGroup(services: services, signals: [], logger: logger)
        await #expect(throws: ServiceEndedEarly.self) { try await group.run() }
        #expect(!journal.entries.withLock { $0 }.contains("a stopping"), "cancelled, not shut down gracefully")
    }

    @Test func aServiceThrowingFailsTheGroupWithItsError() async throws {
        let journal = Journal()
        let services: [any DaemonService] = [
            Recording(name: "a", journal: journal), Recording(name: "broken", journal: journal, failure: Broken()),
        ]
        await #expect(throws: Broken.self) { try await DaemonServiceGroup(services: services, signals: [], logger: logger).run() }
    }

    /// SIGUSR2 stands in for SIGTERM, which would also reach the other tests in this process.
    @Test func aStopSignalStartsTheGracefulShutdown() async throws {
        let journal = Journal()
        let group = DaemonServiceGroup(services: [Recording(name: "a", journal: journal)], signals: [SIGUSR2], logger: logger)
        let running = Task { try await group.run() }
        await journal.waitFor(1)
        kill(getpid(), SIGUSR2)
        try await running.value
        #expect(journal.entries.withLock { $0 } == ["a started", "a stopping"])
    }

    @Test func theIterationOfAStreamEndsAtTheShutdownWhileTheLoopBodyGoesOn() async throws {
        let shutdown = GracefulShutdown()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let (bodies, inBody) = AsyncStream.makeStream(of: Int.self)
        let finished = Mutex<[Int]>([])
        let iterating = Task {
            await shutdown.bound {
                for await value in stream.endingAtGracefulShutdown() {
                    inBody.yield(value)
                    // The body outlives the shutdown: it is not cancelled by it.
                    try? await shutdown.wait()
                    finished.withLock { $0.append(Task.isCancelled ? -value : value) }
                }
            }
        }
        continuation.yield(1)
        var entered = bodies.makeAsyncIterator()
        #expect(await entered.next() == 1)
        shutdown.trigger()
        await iterating.value
        #expect(finished.withLock { $0 } == [1])
    }
}
