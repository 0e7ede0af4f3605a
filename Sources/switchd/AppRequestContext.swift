import Foundation
import Hummingbird
import Scan

/// The per-request context: v1 JSON coding (``JSONCoding``) and the configured body limit.
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Set per request by ``BodyLimitMiddleware``.
    var maxUploadSize: Int

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        maxUploadSize = Settings.defaultMaxBodyBytes
    }

    var requestDecoder: JSONDecoder { JSONCoding.decoder() }
    var responseEncoder: JSONEncoder { JSONCoding.encoder() }
}
