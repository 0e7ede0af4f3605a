import AsyncHTTPClient
import DaemonSupport
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import ScanContract
import SwitchdStore

/// Sends one signed delivery to the URL a webhook registered, and nowhere else: redirects are
/// not followed (a 3xx answer is a failed attempt), the destination is checked against
/// ``WebhookDestinationPolicy`` before each attempt, and the answer's body is read only up to
/// ``answerLimit`` bytes and dropped.
///
/// A stored URL or secret that cannot be used (written by an older version, or into the
/// database by hand) never reaches the HTTP client: the delivery is given up at once (`dead`)
/// with the reason. Why an attempt failed is said in a few words (no answer, TLS, the status),
/// never the connection error itself, so deliveries cannot be read as a port scan.
///
/// Owns its HTTP client; call ``shutdown()`` once done.
struct WebhookSender: Sendable {
    private let client: HTTPClient
    let destinations: WebhookDestinationPolicy
    /// How long one attempt may take in all, connecting included.
    let timeout: TimeAmount

    static let answerLimit = 64 * 1024
    /// The longest a connection may take to open, however long an attempt may take.
    static let connectLimit = Duration.seconds(5)

    /// - Parameter timeout: how long one attempt may take (``WebhookRetryPolicy/attemptTimeout``).
    init(timeout: Duration, destinations: WebhookDestinationPolicy) {
        self.destinations = destinations
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
    /// Never throws: an answer other than 2xx, no answer, or a destination the policy refuses is
    /// a `.failed` outcome saying why with `dead` false (the caller decides after how many); a
    /// URL or secret that can never be used is `.failed` with `dead` true.
    func deliver(_ event: PresenceEvent, to target: WebhookTarget, at timestamp: Date) async -> DeliveryOutcome {
        let url: WebhookURL
        do {
            url = try WebhookURL(target.url)
        } catch {
            return .failed(status: nil, reason: "the stored URL cannot be used: \(error.reason)", dead: true)
        }
        switch await destinations.check(host: url.host) {
        case .allowed: break
        case .refused(let why): return .failed(status: nil, reason: "the host \(why)", dead: false)
        case .unresolved: return .failed(status: nil, reason: "the host name did not resolve", dead: false)
        }
        let body: [UInt8]
        do {
            body = Array(try JSONCoding.encoder().encode(WebhookPayload(event)))
        } catch {
            return .failed(status: nil, reason: "could not encode the event: \(error)", dead: false)
        }
        let signature = WebhookSignature(id: "evt_\(event.id)", timestamp: Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        guard let signed = signature.sign(body, secret: target.secret) else {
            return .failed(status: nil, reason: "the stored secret is not a Standard Webhooks secret", dead: true)
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
            return .failed(status: nil, reason: Self.failure(error), dead: false)
        }
    }

    /// Why an attempt got no answer, in as few words as let an admin act on it: a refused
    /// connection and a timeout read the same, so deliveries do not map which ports answer.
    static func failure(_ error: any Error) -> String {
        if error is NIOSSLError || error is NIOSSLExtraError {
            return "no answer: the TLS handshake failed"
        }
        return "no answer (could not connect, or no answer in time)"
    }

    func shutdown() async throws {
        try await client.shutdown()
    }
}
