import Foundation
import Hummingbird
import ScanContract

/// The per-request context: v1 JSON coding (``JSONCoding``), the configured body limit and the
/// caller.
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Set per request by ``BodyLimitMiddleware``.
    var maxUploadSize: Int
    /// Who the request's bearer token names; set by ``AuthMiddleware``, nil on open routes.
    var principal: Principal?
    /// The peer's IP address, what failed authentications are throttled by; "unknown" when the
    /// channel has none (in-process tests).
    let clientAddress: String
    /// The channel the request came on, as the ``ConnectionTable`` keys it: the connection for
    /// HTTP/1.1, the stream for HTTP/2.
    let connection: ObjectIdentifier
    /// That channel's parent: an HTTP/2 stream's connection (an HTTP/1.1 connection's is the
    /// listening socket, never in the table).
    let parentConnection: ObjectIdentifier?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = ObjectIdentifier(source.channel)
        parentConnection = source.channel.parent.map(ObjectIdentifier.init)
        clientAddress = (source.channel.remoteAddress ?? source.channel.parent?.remoteAddress)?.ipAddress ?? "unknown"
        maxUploadSize = Settings.defaultMaxBodyBytes
    }

    var requestDecoder: JSONDecoder { JSONCoding.decoder() }
    var responseEncoder: JSONEncoder { JSONCoding.encoder() }
}
