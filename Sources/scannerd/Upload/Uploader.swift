#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import ScanContract
import DaemonSupport

/// Sends sealed batches to switchd, oldest first, one at a time, and settles each one (see
/// ``UploadOutcome``): acknowledged by a receipt naming it → its ready file is deleted (`acked`);
/// refused by switchd by name → moved to `rejected/` with switchd's answer (`rejected`, logged as
/// an error; sent again only after `scannerd spool requeue`); anything else (any other 4xx or 5xx,
/// a proxy's page, a receipt for another batch, switchd unreachable, an answer too long) → counted
/// as a retry, logged, and the same batch is sent again after a backoff (100 ms doubling to 2 s,
/// on `clock`); a 429 or 503 with `Retry-After` (switchd's ingest queue is full) is sent again
/// after the wait it names instead. Between batches it sleeps until the spool seals another.
struct Uploader: DaemonService, CustomStringConvertible {
    let spool: Spool
    let api: SwitchdAPI
    let events: EventLog
    let logger: Logger
    var counters = ScannerdCounters()
    /// Times the backoff between retries.
    var clock: any Clock<Duration> = ContinuousClock()

    /// How the service group names it in its logs.
    var description: String { "Uploader" }

    static let initialRetryDelay: Duration = .milliseconds(100)
    static let maximumRetryDelay: Duration = .seconds(2)

    /// Throws when the spool's directories cannot be read or written (a broken disk): the
    /// daemon then stops rather than scan into a spool it cannot empty.
    func run() async throws {
        do {
            try await GracefulShutdown.cancelling { [self] in
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

    /// Sends `batch` until it is acknowledged, rejected, or dropped by a full spool. Throws
    /// `CancellationError` when cancelled (the batch stays ready) and the spool's errors.
    func deliver(_ batch: ReadyBatch) async throws {
        guard await spool.holds(batch) else { return }
        let ready = ReadyBody(try await spool.body(of: batch))
        let body = ready.measurements
        var backoff = Backoff(initial: Self.initialRetryDelay, maximum: Self.maximumRetryDelay)
        var metadata: Logger.Metadata = ["batchID": "\(batch.batchID)"]
        if let reason = ready.unreadableTelemetry {
            logger.error("a ready batch's telemetry could not be read; the batch is sent with it as it is", metadata: metadata.merging(
                ["reason": "\(reason)"], uniquingKeysWith: { $1 }
            ))
        }
        if let telemetry = ready.telemetry, !telemetry.isEmpty {
            guard try await deliver(telemetry, of: batch, backoff: &backoff) else { return }
        }
        while true {
            let outcome: UploadOutcome
            do {
                outcome = UploadOutcome(try await api.postBatch(body), for: batch.batchID)
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
                try await spool.acknowledge(batch)
                logger.debug("uploaded a batch", metadata: metadata.merging([
                    "stored": "\(receipt.stored)", "duplicate": "\(receipt.duplicate)", "discarded": "\(receipt.discarded)",
                ], uniquingKeysWith: { $1 }))
                return
            case .rejected(let status, let response):
                try await spool.reject(batch, status: status, response: response)
                events.record(.rejected(batchID: batch.batchID, status: status))
                logger.error("switchd refused this batch; it is kept in the spool's rejected folder until `scannerd spool requeue`", metadata: metadata.merging([
                    "status": "\(status)", "folder": "\(spool.layout.rejected)",
                ], uniquingKeysWith: { $1 }))
                return
            case .retry(let reason):
                metadata["reason"] = "\(reason)"
                counters.uploadRetries.increment()
                logger.warning("upload failed; retrying the same batch", metadata: metadata)
                try await clock.sleep(for: backoff.nextDelay())
                guard await spool.holds(batch) else { return }
            case .busy(let wait, let reason):
                metadata["reason"] = "\(reason)"
                counters.uploadRetries.increment()
                logger.notice("switchd is busy; sending the same batch again after the wait it asked for", metadata: metadata.merging([
                    "retryAfter": "\(wait)",
                ], uniquingKeysWith: { $1 }))
                try await clock.sleep(for: wait)
                guard await spool.holds(batch) else { return }
            }
        }
    }

    /// Posts a batch's telemetry as a sightings batch without sightings (`POST /v1/sightings`,
    /// where the listening role's telemetry goes), before its measurements: killed in between,
    /// the reports are posted again, and switchd keeps a report no older than the one it holds
    /// without raising its `batteryLow` twice. A transport failure or a 5xx is retried after the
    /// backoff; any other refusal is logged and the reports are dropped (the measurements still
    /// go). Returns false when the batch left the spool meanwhile.
    private func deliver(_ telemetry: [HeardTelemetry], of batch: ReadyBatch, backoff: inout Backoff) async throws -> Bool {
        let metadata: Logger.Metadata = ["batchID": "\(batch.batchID)", "reports": "\(telemetry.count)"]
        while true {
            do {
                _ = try await api.postSightings(SightingBatch(scannerID: spool.settings.scannerID, sightings: [], telemetry: telemetry))
                logger.debug("uploaded a batch's telemetry", metadata: metadata)
                return true
            } catch is CancellationError {
                throw CancellationError()
            } catch let error as SwitchdAPIError where error.status.map({ $0 < 500 && $0 != 429 }) ?? true {
                logger.error("switchd refused a batch's telemetry; dropped, the measurements go on", metadata: metadata.merging(
                    ["error": "\(error)"], uniquingKeysWith: { $1 }
                ))
                return true
            } catch {
                counters.uploadRetries.increment()
                logger.warning("telemetry upload failed; retrying", metadata: metadata.merging(["reason": "\(error)"], uniquingKeysWith: { $1 }))
                try await clock.sleep(for: backoff.nextDelay())
                guard await spool.holds(batch) else { return false }
            }
        }
    }
}
