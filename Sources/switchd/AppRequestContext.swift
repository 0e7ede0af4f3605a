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

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        maxUploadSize = Settings.defaultMaxBodyBytes
    }

    var requestDecoder: JSONDecoder { JSONCoding.decoder() }
    var responseEncoder: JSONEncoder { JSONCoding.encoder() }
}
