import Hummingbird
import ScanContract
import SwitchdStore

/// `DELETE /v1/scanners/{id}`: retire a scanner (admin only).
///
/// What goes and what stays is ``AppDatabase/deleteScanner(_:at:mqtt:)``'s: the scanner's
/// switch, tokens (revoked), positions, presence state and events, placement and sightings go;
/// its batches and readings stay, so the radio map does not shrink. Once committed, switchd
/// forgets the rest: held long-polls and switch streams of the scanner end, its `scannerd_*`
/// series leave `/metrics`, and the MQTT publisher sends its removal from the outbox.
struct ScannerDeleteController {
    let database: AppDatabase
    let hub: SwitchHub
    let metrics: SwitchdMetrics
    /// Where the removal from the broker goes; nil without a broker.
    let mqttOutbox: MQTTOutbox?

    func addRoutes(to routes: Routes) {
        routes.delete("/v1/scanners/{id}", .admin, use: delete)
    }

    /// 204; 404 for an unknown scanner, and so for one already deleted.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let scannerID = try context.pathScannerID()
        let deletion = try await database.deleteScanner(scannerID, at: .nowInMilliseconds(), mqtt: mqttOutbox?.removal(of: scannerID))
        await hub.retire(scannerID)
        metrics.scanners.forget(scannerID)
        await mqttOutbox?.announce(deletion.mqttQueued)
        context.logger.info("Scanner deleted", metadata: [
            "scanner": "\(scannerID)", "revision": "\(deletion.lastRevision)", "tokensRevoked": "\(deletion.tokensRevoked)",
            "positionsDeleted": "\(deletion.positionsDeleted)",
        ])
        return Response(status: .noContent)
    }
}
