import Foundation
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// `--max-tags` and `--max-webhooks`: creating one more than the limit is 409 naming it, and
/// nothing stored changes; once one is deleted there is room again.
@Suite struct RegistryLimitTests {
    static let limits = Limits(maxTags: 2, maxWebhooks: 1)

    static func tag(_ index: Int) -> NewTag {
        NewTag(name: "Tag \(index)", identity: .address(MACAddress(rawValue: 0xAA_BB_CC_00_00_00 + UInt64(index))))
    }

    @Test func oneTagMoreThanMaxTagsIsRefusedNamingTheLimit() async throws {
        try await makeApp(try .inMemory(), limits: Self.limits).test(.router) { client in
            let made = [
                try await client.expect(.created, .post, "/v1/tags", json: Self.tag(0), as: ScanContract.Tag.self),
                try await client.expect(.created, .post, "/v1/tags", json: Self.tag(1), as: ScanContract.Tag.self),
            ]
            let refused = try await client.send(.post, "/v1/tags", json: Self.tag(2))
            #expect(refused.status == .conflict)
            let error = try errorBody(refused)
            #expect(error.code == "conflict" && error.message.contains("max-tags = 2"), "\(error.message)")
            #expect(try await client.expect(.ok, get: "/v1/tags", as: Page<ScanContract.Tag>.self).items == made, "nothing stored is lost")

            #expect(try await client.execute(uri: "/v1/tags/\(made[0].id)", method: .delete).status == .noContent)
            _ = try await client.expect(.created, .post, "/v1/tags", json: Self.tag(2), as: ScanContract.Tag.self)
        }
    }

    @Test func oneWebhookMoreThanMaxWebhooksIsRefusedNamingTheLimit() async throws {
        try await makeApp(try .inMemory(), limits: Self.limits).test(.router) { client in
            let first = try await client.expect(
                .created, .post, "/v1/webhooks", json: NewWebhook(url: "https://example.org/a"), as: CreatedWebhook.self
            ).webhook
            let refused = try await client.send(.post, "/v1/webhooks", json: NewWebhook(url: "https://example.org/b"))
            #expect(refused.status == .conflict)
            #expect(try errorBody(refused).message.contains("max-webhooks = 1"))
            #expect(try await client.expect(.ok, get: "/v1/webhooks", as: Page<Webhook>.self).items == [first], "nothing stored is lost")

            #expect(try await client.execute(uri: "/v1/webhooks/\(first.id)", method: .delete).status == .noContent)
            _ = try await client.expect(.created, .post, "/v1/webhooks", json: NewWebhook(url: "https://example.org/b"), as: CreatedWebhook.self)
        }
    }

    @Test func theLimitsAreOptionsOfServe() throws {
        let serve = try ServeCommand.parse(["--max-tags", "5", "--max-webhooks", "3", "--max-locate-readings", "10", "--locate-readings-per-minute", "20"])
        #expect(serve.limits.limits == Limits(maxTags: 5, maxWebhooks: 3, maxLocateReadings: 10, locateReadingsPerMinute: 20))
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--max-tags", "0"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--max-locate-readings", "10001"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--max-locate-readings", "100", "--locate-readings-per-minute", "50"]) }
    }
}
