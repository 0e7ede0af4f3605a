import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `irk` tags (phones and watches): the key is taken, fingerprinted and sealed; it goes to the
/// scanner itself with its watched list and nowhere else: not in answers, events, positions,
/// the store's identity column or the logs.
@Suite("Phones' keys: write-only")
struct IRKTagTests {
    /// The Core specification's sample key (Vol 3 Part H, Appendix D.7).
    static let key = "ec0234a357c8ad05341010a60a397d9b"
    /// Every way the key could be written: hex both byte orders and cases, base64 both orders.
    static let encodings = [
        key, key.uppercased(), "9b7d390aa610103405adc857a33402ec", "9B7D390AA610103405ADC857A33402EC",
        "m305CqYQEDQFrchXozQC7A", "7AI0o1fIrQU0EBCmCjl9mw", "ec:02:34:a3", "EC:02:34:A3",
    ]

    static func leaks(_ text: String) -> [String] { encodings.filter { text.contains($0) } }

    static var newPhone: Data {
        Data(#"{"name":"Ada's phone","missing":true,"identity":{"kind":"irk","key":"m305CqYQEDQFrchXozQC7A=="}}"#.utf8)
    }

    @Test func theKeyNeverAppearsInAnswersEventsPositionsOrLogs() async throws {
        let sink = TokenLoggingTests.LogLines()
        let logger = Logger(label: "switchd-tests") { _ in TokenLoggingTests.CollectingHandler(sink: sink) }
        let database = try AppDatabase.inMemory()
        let answers = try await makeApp(database, clock: WatchedClock(), logger: logger).test(.router) { client in
            var answers: [String] = []
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            let created = try await client.execute(uri: "/v1/tags", method: .post, body: ByteBuffer(data: Self.newPhone))
            #expect(created.status == .created)
            answers.append(String(buffer: created.body))
            let phone = try decoded(ScanContract.Tag.self, created)
            guard case .irk(let irk) = phone.identity else {
                Issue.record("not an irk tag: \(phone.identity)")
                return answers
            }
            #expect(irk.fingerprint.count == 16 && irk.key == nil)

            // Sightings by fingerprint locate the phone and raise its missing-tag event.
            for second in [1.0, 2.0] {
                for index in TagWorld.corners.indices {
                    let sighting = TagWorld.sighting(phone.identity, rssi: TagWorld.rssi(index, tagAt: 3, 4), at: second)
                    let receipt = try await client.execute(
                        uri: "/v1/sightings", method: .post,
                        body: try jsonBody(SightingBatch(scannerID: TagWorld.scannerID(index), sightings: [sighting]))
                    )
                    #expect(receipt.status == .created)
                    answers.append(String(buffer: receipt.body))
                }
            }
            for uri in [
                "/v1/tags", "/v1/tags/\(phone.id)", "/v1/tags/\(phone.id)/positions", "/v1/tags/\(phone.id)/positions/latest",
                "/v1/events", "/v1/scanners/\(TagWorld.scannerID(0))/switch?watched=0000000000000000",
                "/v1/tags?address=70:81:94:0d:fb:aa",
            ] {
                let answer = try await client.get(uri)
                answers.append(String(buffer: answer.body))
            }
            #expect(answers.contains { $0.contains("\"positions\":[{") || $0.contains("\"x\":") }, "the phone was located")
            #expect(answers.contains { $0.contains("\"kind\":\"missingTagHeard\"") }, "its event was raised (on /v1/events)")
            #expect(answers.contains { $0.contains(irk.fingerprint) })
            return answers
        }
        let identities = try await database.writer.read { db in try String.fetchAll(db, sql: "SELECT identity FROM tag") }
        let sealed = try await database.writer.read { db in try String.fetchAll(db, sql: "SELECT sealed FROM tag_key") }
        #expect(sealed.count == 1)
        for text in answers + identities + sealed + sink.all {
            #expect(Self.leaks(text).isEmpty, "the key appears in: \(text.prefix(300))")
        }
        #expect(!sink.all.isEmpty, "the requests were logged")
    }

    @Test func onlyTheScannerItselfReceivesTheKey() async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let world = try await PositioningWorld.make(client)
            try await TagWorld.placeScanners(client, floorID: world.ground.id)
            let phone = try decoded(
                ScanContract.Tag.self, try await client.execute(uri: "/v1/tags", method: .post, body: ByteBuffer(data: Self.newPhone))
            )
            let scanner = TagWorld.scannerID(0)
            let own = try await issueToken(database, .scanner, scannerID: scanner)
            let uri = "/v1/scanners/\(scanner)/switch?watched=0000000000000000"
            let mine = try decoded(ScanSwitch.self, try await client.get(uri, headers: bearer(own)))
            #expect(mine.watchedTags == [phone.identity])
            #expect(mine.watchedKeys?.map(\.key) == [Self.key], "the scanner gets the key, most significant byte first")
            let admins = try decoded(ScanSwitch.self, try await client.get(uri))
            #expect(admins.watchedTags == [phone.identity] && admins.watchedKeys == nil, "an admin gets the fingerprint only")
            let plain = try decoded(ScanSwitch.self, try await client.get("/v1/scanners/\(scanner)/switch", headers: bearer(own)))
            #expect(plain.watchedKeys == nil, "not asked for the watched list: no keys")
            // A scanner that holds the fingerprint without its key (another switchd could not open
            // it) is answered at once, at the same revision, with the key; what it then holds is
            // the digest switchd compares with.
            let unkeyed = WatchedTags.digest(of: [phone.identity])
            let poll = "/v1/scanners/\(scanner)/switch?revision=\(mine.revision)&wait=30&watched=\(unkeyed)"
            let answered = try decoded(ScanSwitch.self, try await client.get(poll, headers: bearer(own)))
            #expect(answered.revision == mine.revision && answered.watchedKeys?.map(\.key) == [Self.key])
            #expect(answered.watchedDigest != unkeyed)
            guard case .irk(let irk) = phone.identity else { Issue.record("not an irk identity"); return }
            #expect(answered.watchedDigest == WatchedTags.digest(of: [phone.identity], keyed: [irk.fingerprint]))

            // A new key replaces the old one, in the same write.
            let other = "00112233445566778899aabbccddeeff"
            let patch = Data(#"{"identity":{"kind":"irk","key":"\#(other)"}}"#.utf8)
            let patched = try decoded(
                ScanContract.Tag.self, try await client.execute(uri: "/v1/tags/\(phone.id)", method: .patch, body: ByteBuffer(data: patch))
            )
            #expect(patched.identity != phone.identity)
            let renewed = try decoded(ScanSwitch.self, try await client.get(uri, headers: bearer(own)))
            #expect(renewed.watchedTags == [patched.identity] && renewed.watchedKeys?.map(\.key) == [other])

            #expect(try await client.execute(uri: "/v1/tags/\(phone.id)", method: .delete).status == .noContent)
            let after = try decoded(ScanSwitch.self, try await client.get(uri, headers: bearer(own)))
            #expect(after.watchedKeys == nil)
            let left = try await database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tag_key") }
            #expect(left == 0, "the key goes with its tag")
        }
    }

    @Test(arguments: [
        (#""ec0234a357c8ad05341010a60a397d""#, "30 hex digits"),
        (#""zz0234a357c8ad05341010a60a397d9b""#, "not all are hex digits"),
        (#""7AI0o1fIrQU0EBCm""#, "base64 of 12 bytes"),
        (#""not a key""#, "neither"),
    ])
    func badKeysAre422NamingTheProblem(key: String, reason: String) async throws {
        let database = try AppDatabase.inMemory()
        try await makeApp(database).test(.router) { client in
            let body = Data(#"{"name":"phone","identity":{"kind":"irk","key":\#(key)}}"#.utf8)
            let answer = try await client.execute(uri: "/v1/tags", method: .post, body: ByteBuffer(data: body))
            #expect(answer.status == .unprocessableContent)
            let error = try errorBody(answer)
            #expect(error.message.contains(reason) && (error.field ?? "").contains("key"), "\(error)")
            let noKey = Data(#"{"name":"phone","identity":{"kind":"irk"}}"#.utf8)
            #expect(try await client.execute(uri: "/v1/tags", method: .post, body: ByteBuffer(data: noKey)).status == .unprocessableContent)
            #expect(try await client.expect(.ok, get: "/v1/tags", as: Page<ScanContract.Tag>.self).items.isEmpty, "nothing stored")
        }
    }
}
