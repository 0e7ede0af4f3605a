import Foundation
import Logging
import ServiceLifecycle
import Testing
@testable import switchd
@testable import SwitchdStore

/// The leader election of the once-per-cluster work (``ClusterLeaderService``) with two instances
/// on one real server: one leads and runs the work, the other follows and does not, and when the
/// leader's connection goes (its session ended by the server) the leader stops its work and the
/// other takes over. Every step waits on what the services report, never on time.
@Suite("Leader election across instances", postgresInstalled, .postgresServer, .timeLimit(.minutes(2)))
struct PostgresClusterLeaderTests {
    @Test func oneInstanceLeadsTheOtherTakesOverWhenTheLeadersConnectionGoes() async throws {
        let (instanceA, instanceB) = try await twoPostgresInstances(maxConnections: 2)
        let a = Instance(database: instanceA)
        let b = Instance(database: instanceB)

        let runA = Task { try await a.service.run() }
        #expect(await a.next() == .leading)
        #expect(await a.work.next() == .started)
        let runB = Task { try await b.service.run() }
        #expect(await b.next() == .following)
        #expect(await b.next() == .following)

        // The server ends A's session holding the lock, as when A's machine or network dies.
        let ended = try await instanceB.writeStatements { sql in
            try sql.rows("""
                SELECT pg_terminate_backend(pid) AS ended FROM pg_locks
                WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """, [])
                .filter { try $0.bool("ended") }.count
        }
        #expect(ended == 1)
        #expect(await a.work.next() == .stopped)
        #expect(await a.next() == .lost)
        #expect(await b.skipping(.following) == .leading)
        #expect(await b.work.next() == .started)
        #expect(await a.skipping(.lost) == .following)

        runB.cancel()
        _ = await runB.result
        #expect(await b.work.next() == .stopped)
        #expect(await a.skipping(.following) == .leading)
        runA.cancel()
        _ = await runA.result
        try await instanceA.close()
        try await instanceB.close()
    }
}

/// One switchd's side of the election: its standings and what its work did, in order.
private struct Instance {
    let service: ClusterLeaderService
    let standings: AsyncStream<Leadership>
    let work: Work

    init(database: AppDatabase) {
        let (standings, report) = AsyncStream.makeStream(of: Leadership.self)
        self.standings = standings
        work = Work()
        service = ClusterLeaderService(
            database: database, role: "test", services: [work], logger: Logger(label: "test"), retryInterval: .milliseconds(20),
            observe: { report.yield($0) }
        )
    }

    func next() async -> Leadership? {
        var iterator = standings.makeAsyncIterator()
        return await iterator.next()
    }

    /// The next standing other than `repeated`.
    func skipping(_ repeated: Leadership) async -> Leadership? {
        var iterator = standings.makeAsyncIterator()
        while let standing = await iterator.next() {
            if standing != repeated { return standing }
        }
        return nil
    }
}

/// A service standing for presence derivation and webhook deliveries: it says when it starts
/// and when it stops, and runs until cancelled.
private struct Work: Service {
    enum Event: Equatable { case started, stopped }
    private let events: AsyncStream<Event>
    private let report: AsyncStream<Event>.Continuation

    init() {
        let stream = AsyncStream.makeStream(of: Event.self)
        events = stream.stream
        report = stream.continuation
    }

    func run() async throws {
        report.yield(.started)
        defer { report.yield(.stopped) }
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
    }

    func next() async -> Event? {
        var iterator = events.makeAsyncIterator()
        return await iterator.next()
    }
}
