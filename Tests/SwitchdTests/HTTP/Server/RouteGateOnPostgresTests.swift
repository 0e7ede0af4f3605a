import Testing
@testable import switchd

/// The routes switchd serves on PostgreSQL are routes it has: a name misspelt in
/// ``PostgresRouteGate/served`` would quietly answer 501 for a route meant to run. And what
/// still answers 501 is exactly the list docs/scale-out.md and the start-up log give.
@Suite("The PostgreSQL route gate")
struct RouteGateOnPostgresTests {
    @Test func everyServedRouteIsARouteOfThePolicy() {
        for key in PostgresRouteGate.served {
            let parts = key.split(separator: " ", maxSplits: 1).map(String.init)
            #expect(parts.count == 2 && RoutePolicy.standard.hasEntry(for: .init(parts[0])!, path: parts[1]), "\(key)")
        }
    }

    /// The routes not moved onto PostgreSQL yet (docs/scale-out.md, "What runs on PostgreSQL
    /// today"); a route moved leaves this list in the same commit.
    @Test func exactlyTheseRoutesStillAnswer501() {
        #expect(PostgresRouteGate.unserved(by: .standard) == [])
    }
}
