import Logging
import DaemonSupport

/// The listening role as a service, so that SIGTERM or SIGINT (systemd stopping it, Ctrl-C)
/// ends it cleanly: the forwarder stops listening and the process exits 0. The window open then
/// is not sent (the request is cancelled with the rest): sightings are a live view.
///
/// `scannerd track` runs it alone, and its end is the process's end. Inside `scannerd run`
/// (`waitsForShutdown`), its end before the shutdown (the shared BLE loop lost its radio) is
/// logged and the service waits for the shutdown, so the scanning beside it goes on.
struct TrackService<Heard: AsyncSequence & Sendable>: DaemonService, CustomStringConvertible where Heard.Element == [TrackHearing] {
    let forwarder: TrackForwarder
    let hearings: Heard
    var watching: TrackForwarder.WatchSource = .readEvery
    var waitsForShutdown = false
    let logger: Logger

    /// How the service group names it in its logs.
    var description: String { "TrackService" }

    /// Throws what ``TrackForwarder/run(_:watching:)`` throws (only when not `waitsForShutdown`),
    /// except the cancellation a graceful shutdown causes (SIGTERM or SIGINT while a post or a
    /// wait is under way): that is a stop.
    func run() async throws {
        do {
            let stored = try await GracefulShutdown.cancelling { [forwarder, hearings, watching] in
                try await forwarder.run(hearings, watching: watching)
            }
            logger.info("Track mode ended", metadata: ["sightingsStored": "\(stored)"])
        } catch {
            guard error is CancellationError, GracefulShutdown.isUnderway else {
                guard waitsForShutdown else { throw error }
                logger.error("The listening role stopped: its radio failed", metadata: ["error": "\(error)"])
                return try await waitForShutdown()
            }
            logger.info("Track mode stopped")
            return
        }
        if waitsForShutdown, !GracefulShutdown.isUnderway {
            try await waitForShutdown()
        }
    }

    private func waitForShutdown() async throws {
        do {
            try await GracefulShutdown.wait()
        } catch is CancellationError {
            return
        }
    }

    /// Runs the service until it ends or a signal stops it.
    func runUntilStopped() async throws {
        try await DaemonServiceGroup(services: [self], logger: logger).run()
    }
}
