import Foundation
import Harness
#if canImport(Glibc)
import Glibc
#endif
import Logging
import ServiceLifecycle
import Testing
@testable import switchd
@testable import SwitchdStore

/// The leader election of the once-per-cluster work (``ClusterLeaderService``) with two instances
/// on one real server: one leads and runs the work, the other follows and does not, and when the
/// leader's connection goes (its session ended by the server) or stops answering (its server
/// process frozen) the leader stops its work and the other takes over. Every step waits on what
/// the services report, never on time. A's retries wait on a clock the test moves, so that A,
/// having lost the lead, cannot take it back before B does.
@Suite("Leader election across instances", postgresInstalled, .postgresServer, .timeLimit(.minutes(2)))
struct PostgresClusterLeaderTests {
    @Test func oneInstanceLeadsTheOtherTakesOverWhenTheLeadersConnectionGoes() async throws {
        let election = try await Election.started()
        let (a, b) = (election.a, election.b)
        #expect(await b.next() == .following)

        // The server ends A's session holding the lock, as when A's machine or network dies.
        let ended = try await b.database.writeStatements { sql in
            try sql.rows("SELECT pg_terminate_backend(pid) AS ended FROM pg_locks WHERE \(lockHolders)", []).filter { try $0.bool("ended") }.count
        }
        #expect(ended == 1)
        #expect(await a.work.next() == .stopped)
        #expect(await a.next() == .lost)
        #expect(await b.skipping(.following) == .leading)
        #expect(await b.work.next() == .started)

        // A tries again (and again) from now on.
        let retries = election.retryingA()
        #expect(await a.skipping(.lost) == .following)
        election.runB.cancel()
        _ = await election.runB.result
        #expect(await b.work.next() == .stopped)
        #expect(await a.skipping(.following) == .leading)
        retries.cancel()
        try await election.stop()
    }

    /// A connection that stops answering without closing (its server process frozen, as behind a
    /// network cut): the leader finds it out by asking, stops its work and lets go; once the
    /// frozen session ends, the other instance leads.
    @Test func aLeaderWhoseConnectionStopsAnsweringStopsItsWorkAndTheOtherTakesOver() async throws {
        let election = try await Election.started()
        let (a, b) = (election.a, election.b)
        let pid = try await b.database.readStatements { sql in
            try #require(try sql.row("SELECT pid FROM pg_locks WHERE \(lockHolders)", [])).int64("pid")
        }
        #expect(kill(pid_t(pid), SIGSTOP) == 0)
        #expect(await a.work.next() == .stopped)
        #expect(await a.next() == .lost)
        #expect(kill(pid_t(pid), SIGCONT) == 0)
        #expect(await b.skipping(.following) == .leading)
        #expect(await b.work.next() == .started)
        try await election.stop()
    }
}

/// Two instances on one fresh database: A started first and leading with its work started, then
/// B started and following.
private struct Election {
    let a: Instance
    let b: Instance
    let runA: Task<Void, any Error>
    let runB: Task<Void, any Error>
    /// What A's retries wait on.
    let clockA: ManualClock

    static func started() async throws -> Election {
        let (instanceA, instanceB) = try await twoPostgresInstances(maxConnections: 2)
        let clockA = ManualClock()
        let a = Instance(database: instanceA, clock: clockA)
        let b = Instance(database: instanceB, clock: ContinuousClock())
        let runA = Task { try await a.service.run() }
        #expect(await a.next() == .leading)
        #expect(await a.work.next() == .started)
        let runB = Task { try await b.service.run() }
        #expect(await b.next() == .following)
        return Election(a: a, b: b, runA: runA, runB: runB, clockA: clockA)
    }

    /// Lets A retry each time it waits to, until the returned task is cancelled.
    func retryingA() -> Task<Void, Never> {
        Task { [clockA] in await clockA.step(by: Instance.retryInterval, whenAsleep: 1) { false } }
    }

    func stop() async throws {
        runA.cancel()
        runB.cancel()
        _ = await runA.result
        _ = await runB.result
        try await a.database.close()
        try await b.database.close()
    }
}

/// The condition on `pg_locks` that finds the session advisory lock held in this database.
private let lockHolders = """
    locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
    """

/// One switchd's side of the election: its standings and what its work did, in order.
private struct Instance {
    let database: AppDatabase
    let service: ClusterLeaderService
    let standings: AsyncStream<Leadership>
    let work: Work

    static let retryInterval = Duration.milliseconds(20)

    init(database: AppDatabase, clock: any Clock<Duration>) {
        self.database = database
        let (standings, report) = AsyncStream.makeStream(of: Leadership.self)
        self.standings = standings
        work = Work()
        service = ClusterLeaderService(
            database: database, role: "test", services: [work], logger: Logger(label: "test"), clock: clock,
            retryInterval: Self.retryInterval,
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
        try await heldUntilCancelled() as Void
    }

    func next() async -> Event? {
        var iterator = events.makeAsyncIterator()
        return await iterator.next()
    }
}
