import Foundation
import GRDB
import ScanContract
import Testing
@testable import SwitchdStore

/// `GET /v1/measurements?emitter=` finds its readings through `measurement_address` or
/// `measurement_beacon` (asked of SQLite with `EXPLAIN QUERY PLAN`), in the feed's order,
/// whatever other filters come with it.
@Suite("Measurement emitter index")
struct MeasurementEmitterIndexTests {
    @Test func theEmitterFilterReadsThroughItsIndex() async throws {
        let database = try AppDatabase.inMemory()
        let filters: [(EmitterFilter, index: String)] = [
            (try EmitterFilter("ap:aa:bb:cc:dd:ee:ff"), "measurement_address"),
            (try EmitterFilter("02:00:00:00:00:01"), "measurement_address"),
            (try EmitterFilter("beacon:\(Readings.beaconUUID.uuidString)/1/2"), "measurement_beacon"),
        ]
        try await database.writer.read { db in
            for (emitter, index) in filters {
                for filter in [MeasurementFilter(emitter: emitter), MeasurementFilter(kind: .wifi, since: Date(), emitter: emitter)] {
                    let query = AppDatabase.measurementsQuery(matching: filter, after: 0, limit: 100)
                    let plan = try HistoryIndexTests.plan(of: query.sql, arguments: query.arguments, in: db)
                    #expect(plan.contains { $0.hasPrefix("SEARCH measurement USING INDEX \(index) ") }, "\(emitter): \(plan)")
                    #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "the feed's order comes from the index: \(plan)")
                }
            }
        }
    }
}
