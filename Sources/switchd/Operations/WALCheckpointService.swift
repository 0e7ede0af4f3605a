import Logging
import ServiceLifecycle
import SwitchdStore

/// Runs the database's WAL checkpointer (``WALCheckpointer``) until shutdown, so that no commit
/// (an upload's, a switch flip's) copies the WAL back into the database file itself. A failed
/// checkpoint is logged and the next commit past the threshold tries again; when the
/// checkpointer's connection cannot be opened the service throws, which stops switchd.
struct WALCheckpointService: Service {
    let checkpointer: WALCheckpointer
    let logger: Logger

    func run() async throws {
        try await cancelWhenGracefulShutdown { [checkpointer, logger] in
            try await checkpointer.run { outcome in
                switch outcome {
                case .success(let pages):
                    logger.debug("WAL checkpointed", metadata: ["walFrames": "\(pages.walFrames)", "checkpointed": "\(pages.checkpointed)"])
                case .failure(let error):
                    logger.warning("WAL checkpoint failed; the next commit past the threshold tries again", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
