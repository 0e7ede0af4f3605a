import Clocks
import Foundation
import ScanContract
import Testing
@testable import scannerd

/// The position poster against switchd's answers, scripted at the HTTP edge, its retry delays on
/// a clock the test advances.
@Suite("Position poster", .timeLimit(.minutes(1)))
struct PositionPosterTests {
    func position(x: Double) -> NewPosition {
        NewPosition(
            scannerID: testScanner, time: Date(timeIntervalSince1970: 1_795_000_000), building: "main", floor: 1, x: x, y: 2,
            roomID: nil, nearestLocationID: nil, accuracyMetres: 3, method: "knn"
        )
    }

    @Test func anUndeliveredPositionIsRetriedOnTheClockAndARefusedOneDropped() async throws {
        let (answered, answer) = AsyncStream.makeStream(of: Int.self)
        let client = ScriptedHTTPClient { _, index in
            defer { answer.yield(index) }
            if index < 2 { throw URLError(.cannotConnectToHost) }
            return try errorResponse(422, code: "invalid", message: "x is off the floor", field: "x")
        }
        let clock = TestClock()
        let (positions, queue) = AsyncStream.makeStream(of: NewPosition.self)
        let poster = PositionPoster(
            positions: positions, api: SwitchdAPI(baseURL: URL(string: "http://switchd.invalid:8080")!, client: client),
            logger: quietLogger, clock: clock
        )
        let running = Task { await poster.run() }
        var answers = answered.makeAsyncIterator()

        queue.yield(position(x: 1))
        #expect(await answers.next() == 0)
        await clock.sleeper()
        #expect(await client.requests.count == 1, "no retry until the clock moves")
        await clock.advance(by: .milliseconds(200)) // the first delay is at most 200 ms
        #expect(await answers.next() == 1)
        await clock.sleeper()
        await clock.advance(by: .milliseconds(400)) // the second at most 400 ms
        #expect(await answers.next() == 2, "refused: dropped, not retried")
        queue.yield(position(x: 5))
        #expect(await answers.next() == 3, "the next position goes out at once")
        queue.finish()
        await running.value

        let posted = try await client.requests.map { try JSONCoding.decoder().decode(NewPosition.self, from: $0.body!).x }
        #expect(posted == [1, 1, 1, 5])
    }
}
