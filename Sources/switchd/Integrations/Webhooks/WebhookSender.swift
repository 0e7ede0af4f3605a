import AsyncHTTPClient
import DaemonSupport
import Foundation
import NIOCore
import NIOHTTP1
import ScanContract
import SwitchdStore

/// Sends one signed delivery to the URL a webhook registered, and nowhere else: redirects are
/// not followed (a 3xx answer is a failed attempt), and the answer's body is read only up to
/// ``answerLimit`` bytes and dropped.
///
/// Owns its HTTP client; call ``shutdown()`` once done.
struct WebhookSender: Sendable {
    private let client: HTTPClient
    /// How long one attempt may take in all, connecting included.
    let timeout: TimeAmount

    static let answerLimit = 64 * 1024
    /// The longest a connection may take to open, however long an attempt may take.
    static let connectLimit = Duration.seconds(5)

    /// - Parameter timeout: how long one attempt may take (``WebhookRetryPolicy/attemptTimeout``).
    init(timeout: Duration) {
        self.timeout = .nanoseconds(timeout.nanoseconds)
        let connect = TimeAmount.nanoseconds(min(timeout, Self.connectLimit).nanoseconds)
        let configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: HTTPClient.Configuration.Timeout(connect: connect, read: self.timeout),
            connectionPool: HTTPClient.Configuration.ConnectionPool()
        )
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Posts `event` to `target` as a ``WebhookPayload``, signed with its secret and stamped `timestamp`.
    ///
    /// Never throws: an answer other than 2xx, no answer, or a URL or secret that cannot be used
    /// is a `.failed` outcome saying why (`dead` is left false; the caller decides).
    func deliver(_ event: PresenceEvent, to target: WebhookTarget, at timestamp: Date) async -> DeliveryOutcome {
        let body: [UInt8]
        do {
            body = Array(try JSONCoding.encoder().encode(WebhookPayload(event)))
        } catch {
            return .failed(status: nil, reason: "could not encode the event: \(error)", dead: false)
        }
        let signature = WebhookSignature(id: "evt_\(event.id)", timestamp: Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        guard let signed = signature.sign(body, secret: target.secret) else {
            return .failed(status: nil, reason: "the stored secret is not a Standard Webhooks secret", dead: false)
        }
        var request = HTTPClientRequest(url: target.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "floorscan-switchd")
        request.headers.add(name: WebhookSignature.idHeader, value: signature.id)
        request.headers.add(name: WebhookSignature.timestampHeader, value: String(signature.timestamp))
        request.headers.add(name: WebhookSignature.signatureHeader, value: signed)
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await client.execute(request, timeout: timeout)
            var read = 0
            for try await chunk in response.body {
                read += chunk.readableBytes
                if read > Self.answerLimit { break }
            }
            let status = Int(response.status.code)
            guard (200..<300).contains(status) else {
                let redirect = (300..<400).contains(status) ? " (redirects are not followed)" : ""
                return .failed(status: status, reason: "answered \(status)\(redirect)", dead: false)
            }
            return .delivered(status: status)
        } catch {
            return .failed(status: nil, reason: "no answer: \(error)", dead: false)
        }
    }

    func shutdown() async throws {
        try await client.shutdown()
    }
}
