import Crypto
import Foundation
import Hummingbird
import ScanContract
@testable import switchd

/// A webhook receiver on loopback: a real HTTP server that records what it is sent and answers
/// as the test says. Start it with `receiver.application().test(.live) { … }`.
actor WebhookReceiver {
    /// How it answers a delivery.
    enum Answer: Sendable {
        case accept
        /// This status for every delivery.
        case fail(HTTPResponse.Status)
        /// 503 for these message IDs only, accepted otherwise.
        case failOnly(Set<String>)
        /// 307 to this URL.
        case redirect(String)
        /// No answer until ``release()``; accepted then, and every delivery after at once.
        case holdUntilReleased
    }

    struct Received: Sendable {
        var path: String
        var id: String
        var timestamp: String
        var signature: String
        var body: Data
    }

    private var answer: Answer = .accept
    /// The deliveries accepted, in the order they came.
    private(set) var accepted: [Received] = []
    /// Every request, accepted or not.
    private(set) var requests: [Received] = []
    /// Counts the deliveries accepted.
    let acceptedCount = Watermark()
    /// Counts the requests that were held (``Answer/holdUntilReleased``).
    let heldCount = Watermark()
    private let released = Watermark()

    func answer(_ answer: Answer) {
        self.answer = answer
    }

    /// Lets held requests and every one after them through (``Answer/holdUntilReleased``).
    func release() async {
        await released.bump()
    }

    private func handle(_ received: Received) async -> HTTPResponse.Status? {
        requests.append(received)
        if case .holdUntilReleased = answer, await released.value == 0 {
            await heldCount.bump()
            await released.wait(untilAbove: 0)
        }
        switch answer {
        case .fail(let status):
            return status
        case .failOnly(let ids) where ids.contains(received.id):
            return .serviceUnavailable
        case .redirect:
            return .temporaryRedirect
        case .accept, .failOnly, .holdUntilReleased:
            accepted.append(received)
            await acceptedCount.raise(to: Int64(accepted.count))
            return nil
        }
    }

    private var redirectTarget: String? {
        if case .redirect(let url) = answer { return url }
        return nil
    }

    /// Returns once `count` deliveries have been accepted.
    func waitForAccepted(_ count: Int) async {
        await acceptedCount.wait(untilAbove: Int64(count) - 1)
    }

    nonisolated func application() -> some ApplicationProtocol {
        let router = Router()
        router.post("/{path}") { request, context -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            let headers = request.headers
            func header(_ name: String) -> String {
                headers.first { $0.name.canonicalName == name }?.value ?? ""
            }
            let received = Received(
                path: context.parameters.get("path") ?? "", id: header(WebhookSignature.idHeader),
                timestamp: header(WebhookSignature.timestampHeader), signature: header(WebhookSignature.signatureHeader),
                body: Data(body.readableBytesView)
            )
            guard let refusal = await self.handle(received) else { return Response(status: .noContent) }
            var answerHeaders: HTTPFields = [:]
            if let target = await self.redirectTarget { answerHeaders[.location] = target }
            return Response(status: refusal, headers: answerHeaders)
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}

extension WebhookReceiver.Received {
    /// Whether the signature is HMAC-SHA256 over `id.timestamp.body` keyed with the secret's
    /// bytes, as a Standard Webhooks receiver checks it (computed here without switchd's code).
    func isSigned(with secret: String) -> Bool {
        guard secret.hasPrefix("whsec_"), let key = Data(base64Encoded: String(secret.dropFirst(6))) else { return false }
        let code = HMAC<SHA256>.authenticationCode(for: Data("\(id).\(timestamp).".utf8) + body, using: SymmetricKey(data: key))
        return signature.split(separator: " ").contains { $0 == "v1,\(Data(code).base64EncodedString())" }
    }

    func payload() throws -> WebhookPayload {
        try JSONCoding.decoder().decode(WebhookPayload.self, from: body)
    }
}
