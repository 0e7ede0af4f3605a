import DaemonSupport

/// The spool as a service: it seals each batch when it has been open for `batchAge`, and seals
/// the open batch when the service stops (graceful shutdown or cancellation).
extension Spool: DaemonService, CustomStringConvertible {
    /// How the service group names it in its logs.
    nonisolated var description: String { "Spool" }

    func run() async throws {
        do {
            try await GracefulShutdown.cancelling { [self] in
                try await sealBatchesWhenOld()
            }
        } catch is CancellationError {
            // Shutting down: fall through to seal what is open.
        }
        do {
            try sealOpenBatch()
        } catch {
            logger.error("could not seal the open batch on shutdown; its journal is sealed on the next start", metadata: [
                "error": "\(error)",
            ])
        }
    }

    /// Batches open one after another, so each one's deadline is no earlier than the one before:
    /// sleeping until each deadline in turn seals every batch on time.
    private func sealBatchesWhenOld() async throws {
        for await opened in openedBatches {
            try await clock.sleep(until: opened.deadline)
            sealByAge(opened.batchID)
        }
    }
}
