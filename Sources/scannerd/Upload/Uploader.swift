import Foundation
import Logging
import ScanContract
import ServiceLifecycle

/// Sends sealed batches to switchd, oldest first, one at a time, and settles each one:
/// acknowledged → its ready file is deleted (`acked`); refused for good → moved to `rejected/`
/// with switchd's answer (`rejected`, logged as an error; never sent again, never deleted);
/// anything else (5xx, switchd unreachable) → the same batch is sent again after a backoff
/// (100 ms doubling to 2 s). Between batches it sleeps until the spool seals another.
struct Uploader: Service, CustomStringConvertible {
    let spool: Spool
    let api: SwitchdAPI
    let events: EventLog
    let logger: Logger
    var counters = ScannerdCounters()

    /// How the service group names it in its logs.
    var description: String { "Uploader" }

    static let initialRetryDelay: Duration = .milliseconds(100)
    static let maximumRetryDelay: Duration = .seconds(2)

    /// Throws when the spool's directories cannot be read or written (a broken disk): the
    /// daemon then stops rather than scan into a spool it cannot empty.
    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { [self] in
                try await uploadAsSealed()
            }
        } catch is CancellationError {
            logger.debug("stopped uploading")
        }
    }

    private func uploadAsSealed() async throws {
        var sealed = spool.readyBatchesArrived.makeAsyncIterator()
        repeat {
            for batch in try spool.readyBatches() {
                try await deliver(batch)
            }
        } while await sealed.next() != nil
    }

    /// Sends `batch` until it is acknowledged or rejected. Throws `CancellationError` when
    /// cancelled (the batch stays ready) and the spool's errors.
    func deliver(_ batch: ReadyBatch) async throws {
        let body = try spool.body(of: batch)
        var backoff = Backoff(initial: Self.initialRetryDelay, maximum: Self.maximumRetryDelay)
        var metadata: Logger.Metadata = ["batchID": "\(batch.batchID)"]
        while true {
            let outcome: UploadOutcome
            do {
                outcome = UploadOutcome(try await api.postBatch(body))
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                outcome = .retry("\(error)")
            }
            switch outcome {
            case .acknowledged(let receipt):
                // Recorded before the file goes: killed in between, the batch is sent again and
                // acknowledged as a duplicate, so every sealed batch ends with an `acked` line.
                events.record(.acked(batchID: batch.batchID, stored: receipt.stored, duplicate: receipt.duplicate))
                try spool.acknowledge(batch)
                logger.debug("uploaded a batch", metadata: metadata.merging([
                    "stored": "\(receipt.stored)", "duplicate": "\(receipt.duplicate)", "discarded": "\(receipt.discarded)",
                ], uniquingKeysWith: { $1 }))
                return
            case .rejected(let status, let response):
                try spool.reject(batch, status: status, response: response)
                events.record(.rejected(batchID: batch.batchID, status: status))
                logger.error("switchd refused a batch; it is kept in the spool's rejected folder and not sent again", metadata: metadata.merging([
                    "status": "\(status)", "folder": "\(spool.layout.rejected)",
                ], uniquingKeysWith: { $1 }))
                return
            case .retry(let reason):
                metadata["reason"] = "\(reason)"
                counters.uploadRetries.increment()
                logger.warning("upload failed; retrying the same batch", metadata: metadata)
                try await Task.sleep(for: backoff.nextDelay())
            }
        }
    }
}
