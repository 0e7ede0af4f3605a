import CoreMetrics
import Hummingbird
import Logging
import ScanContract

/// Scanners come first when the connections are full: a scanner's request (its switch
/// long-poll, an upload) on an overflow connection, which would be answered 503 `overloaded`,
/// ends the oldest stream of a reader or visitor token instead (its connection is closed, so
/// room comes) and is served on the overflow connection. Each stream ended is counted in
/// `switchd_streams_evicted_total`; the first of an episode of pressure is logged, the rest
/// are not (``ConnectionTable/firstEvictionOfEpisode()``).
///
/// Looks at the bearer token before ``AuthMiddleware`` does (overflow requests are refused
/// before routing), trusting a token found active before (``RememberedTokens``); the request is
/// authenticated as usual afterwards.
struct ScannerPriority: Sendable {
    /// Whose streams are ended for scanners.
    static let yielding: Set<TokenRole> = [.reader, .visitor]

    let streams: OpenStreams
    let table: ConnectionTable
    let authenticator: TokenAuthenticator
    /// `switchd_streams_evicted_total`.
    let evicted: CoreMetrics.Counter
    let logger: Logger

    /// Ends a reader's or visitor's oldest stream if `request` is a scanner's; answers whether
    /// it did (the request is then to be served).
    func makeRoom(for request: Request) async -> Bool {
        guard let header = request.headers[.authorization], let token = BearerToken(authorization: header),
              let principal = try? await authenticator.principal(for: token, acceptingRemembered: true), principal.role == .scanner,
              let stream = streams.takeOldest(of: Self.yielding) else {
            return false
        }
        table.close(stream.connection)
        if let parent = stream.parentConnection { table.close(parent) }
        evicted.increment()
        if table.firstEvictionOfEpisode() {
            logger.warning("Connection limit reached: ending readers' oldest streams so scanners get through", metadata: [
                "limit": "\(table.limit)", "scanner": "\(principal.scannerID.map { "\($0)" } ?? "")",
            ])
        }
        return true
    }
}
