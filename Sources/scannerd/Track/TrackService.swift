import Logging
import ServiceLifecycle

/// Track mode as a service, so that SIGTERM or SIGINT (systemd stopping it, Ctrl-C) ends it
/// cleanly: the forwarder stops listening and the process exits 0. The window open then is not
/// sent (the request is cancelled with the rest): sightings are a live view.
struct TrackService<Heard: AsyncSequence & Sendable>: Service where Heard.Element == [TrackHearing] {
    let forwarder: TrackForwarder
    let hearings: Heard
    let logger: Logger

    /// Throws what ``TrackForwarder/run(_:)`` throws, except the cancellation a graceful
    /// shutdown causes (SIGTERM or SIGINT while a post or a wait is under way): that is a stop.
    func run() async throws {
        do {
            let stored = try await cancelWhenGracefulShutdown { [forwarder, hearings] in try await forwarder.run(hearings) }
            logger.info("Track mode ended", metadata: ["sightingsStored": "\(stored)"])
        } catch {
            guard error is CancellationError, Task.isShuttingDownGracefully else { throw error }
            logger.info("Track mode stopped")
        }
    }

    /// Runs the service until it ends or a signal stops it.
    func runUntilStopped() async throws {
        try await ServiceGroup(services: [self], gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [], logger: logger).run()
    }
}
