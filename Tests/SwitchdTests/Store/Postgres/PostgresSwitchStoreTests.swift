import Foundation
import ScanContract
import Testing
@testable import SwitchdStore

/// Scanners and their switches, with the same assertions on SQLite and on a real PostgreSQL
/// server (docs/scale-out.md): revisions one after another, a stale expected revision refused,
/// a change that changes nothing kept at its revision, and expiry of a `{seconds: T}` switch.
@Suite("Scanners and switches on both databases", postgresInstalled, .postgresServer)
struct PostgresSwitchStoreTests {
    static let start = Date(milliseconds: 1_700_000_000_000)

    @Test(arguments: StoreBackend.allCases)
    func aNewScannerHasItsSwitchOffAtRevisionOneAndIDsAreUnique(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let id = try ScannerID("hall-1")
            let scanner = try await database.createScanner(NewScanner(id: id, name: "Hall"), at: Self.start)
            #expect(scanner == ScanContract.Scanner(id: id, name: "Hall"))
            #expect(try await database.scanners().map(\.id.rawValue) == ["default", "hall-1"])
            #expect(try await database.scanner(id) == scanner)
            let first = try await database.currentSwitch(of: id)
            #expect(first == .initial(for: id, at: Self.start))
            await #expect(throws: StoreError.conflict("scanner hall-1 already exists")) {
                try await database.createScanner(NewScanner(id: id), at: Self.start)
            }
            let unknown = try ScannerID("nowhere")
            await #expect(throws: StoreError.notFound("no scanner nowhere")) { try await database.scanner(unknown) }
            await #expect(throws: StoreError.notFound("no scanner nowhere")) { try await database.currentSwitch(of: unknown) }
        }
    }

    /// The seam's createScanner reads `deleted_scanner` (`v4-scanner-delete` and its twin) alike:
    /// a scanner registered again under a deleted ID numbers its revisions on from the last one.
    @Test(arguments: StoreBackend.allCases)
    func aScannerRegisteredUnderADeletedIDStartsPastItsLastRevision(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let id = try ScannerID("hall-1")
            try await database.writeStatements { sql in
                try sql.execute(
                    "INSERT INTO deleted_scanner (scanner_id, last_revision, deleted_ms) VALUES (?, ?, ?)",
                    [.text(id.rawValue), .integer(7), .integer(Int64(Self.start.milliseconds))]
                )
            }
            _ = try await database.createScanner(NewScanner(id: id), at: Self.start)
            var expected = ScanSwitch.initial(for: id, at: Self.start)
            expected.revision = 8
            #expect(try await database.currentSwitch(of: id) == expected)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aFlipIsTheNextRevisionAndAStaleExpectedRevisionIsRefused(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let id = try ScannerID("default")
            let on = try await database.updateSwitch(of: id, with: SwitchPatch(scanning: true, expectedRevision: 1), at: Self.start)
            #expect(on.isNewRevision && on.scanSwitch.revision == 2 && on.scanSwitch.scanning)
            let again = try await database.updateSwitch(of: id, with: SwitchPatch(scanning: true), at: Self.start)
            #expect(!again.isNewRevision && again.scanSwitch == on.scanSwitch)
            await #expect(throws: StoreError.conflict("the switch of default is at revision 2, not 1")) {
                try await database.updateSwitch(of: id, with: SwitchPatch(scanning: false, expectedRevision: 1), at: Self.start)
            }
            await #expect(throws: StoreError.self) {
                try await database.updateSwitch(of: id, with: SwitchPatch(roomID: .set(99)), at: Self.start)
            }
            #expect(try await database.currentSwitch(of: id) == on.scanSwitch)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aTimedSwitchTurnsOffOnceItsDeadlinePasses(_ backend: StoreBackend) async throws {
        try await backend.withDatabase { database in
            let id = try ScannerID("default")
            let timed = try await database.updateSwitch(
                of: id, with: SwitchPatch(scanning: true, stopAfter: .set(.seconds(30))), at: Self.start
            ).scanSwitch
            #expect(try await database.nextSwitchDeadline() == Self.start.addingTimeInterval(30))
            #expect(try await database.expireSwitches(at: Self.start.addingTimeInterval(29)).isEmpty)
            let expired = try await database.expireSwitches(at: Self.start.addingTimeInterval(30))
            #expect(expired.map(\.revision) == [timed.revision + 1] && expired.allSatisfy { !$0.scanning })
            #expect(try await database.currentSwitch(of: id) == expired.first)
            #expect(try await database.nextSwitchDeadline() == nil)
        }
    }
}

/// Two stores on one PostgreSQL database, as two switchd instances: a revision committed
/// through one is announced to the other's listener, and only once it is committed.
@Suite("Switch revisions across instances", postgresInstalled, .postgresServer)
struct PostgresSwitchFanOutTests {
    @Test func aFlipCommittedThroughOneStoreReachesTheOthersListener() async throws {
        let (first, second) = try await twoPostgresInstances()
        let (announced, announce) = AsyncStream.makeStream(of: String.self)
        let (registered, register) = AsyncStream.makeStream(of: Void.self)
        let listener = Task {
            try await second.listenForSwitchRevisions(listening: { register.yield() }) { scanner, revision in
                announce.yield("\(scanner) \(revision)")
            }
        }
        var registrations = registered.makeAsyncIterator()
        _ = await registrations.next()

        let id = try ScannerID("default")
        await #expect(throws: StoreError.self) {
            try await first.updateSwitch(of: id, with: SwitchPatch(scanning: true, expectedRevision: 7), at: Date())
        }
        _ = try await first.updateSwitch(of: id, with: SwitchPatch(scanning: true), at: Date())
        var announcements = announced.makeAsyncIterator()
        #expect(await announcements.next() == "default 2", "the refused change announced nothing, the flip its revision")
        #expect(try await second.currentSwitch(of: id).revision == 2)

        listener.cancel()
        _ = await listener.result
        try await first.close()
        try await second.close()
    }
}
