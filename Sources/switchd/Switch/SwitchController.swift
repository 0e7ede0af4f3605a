import DaemonSupport
import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/scanners/{id}/switch`: read (or long-poll) and change a scanner's scan switch.
/// Long-polls wait on `clock`.
struct SwitchController {
    let database: AppDatabase
    let hub: SwitchHub
    /// Counts this controller's changes while they wait for the writer, so ingest makes way.
    let switchWrites: SwitchWritesWaiting
    var clock: any Clock<Duration> = ContinuousClock()
    /// Opens the watched phones' keys for the scanner's own answer (``ScanSwitch/watchedKeys``).
    var keys = TagKeySealer.ephemeral()
    /// Keys that did not open, logged when their number changes.
    let unopenedKeys = UnopenedKeys()

    /// How long a long-poll holds when the client does not say.
    static let defaultWait = 30.0
    /// The longest a long-poll holds; a longer `wait` is shortened to this.
    static let maxWait = 60.0

    func addRoutes(to routes: Routes) {
        routes.get("/v1/scanners/{id}/switch", .readOwnScanner, use: show)
        routes.patch("/v1/scanners/{id}/switch", .admin, use: update)
        routes.allowOnly([.get, .patch], on: "/v1/scanners/{id}/switch")
    }

    /// The switch now; with `?revision=R`, held while the switch is still at revision R, until it
    /// changes or `wait` seconds (default 30, at most 60) pass. A listening scanner adds
    /// `watched=D` (the ``WatchedTags/digest(of:)`` of the list it holds, of `[]` at first): the
    /// answer then carries the watched list (``ScanSwitch/watchedTags``: every registered tag,
    /// then the beacons of a placed scanner's building, ``WatchedIdentities``), and a long-poll is
    /// also answered as soon as its digest is not D. A list too long for the answer is shortened
    /// (``WatchedTags/fitting(_:in:)``), says so in ``ScanSwitch/watchedLeftOut`` and is logged
    /// as an error whenever the number left off changes. The answer is the same shape either
    /// way; a graceful shutdown answers at once. The answer carries the scanner's settings and
    /// their revision (``ScanSwitch/settings``); a scanner that adds `settings=S` (the settings
    /// revision it holds, 0 for none) is also answered as soon as that revision is not S. A scanner deleted while its long-poll is held
    /// ends it at once with 404, even if the ID is registered again meanwhile.
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let scannerID = try context.pathScannerID()
        let query = QueryParameters(request)
        let watched = query.text("watched")
        let knownSettings = try query.int64("settings")
        guard let revision = try query.int64("revision") else {
            return try .json(await servedSwitch(of: scannerID, withTags: watched != nil, context: context).switch)
        }
        let wait = min(try query.seconds("wait") ?? Self.defaultWait, Self.maxWait)
        let revisions = await hub.revisions(of: scannerID)
        let waited = ElapsedTime(clock)
        let deadline = Duration.milliseconds(Int64(wait * 1000))
        var current = try await servedSwitch(of: scannerID, withTags: watched != nil, context: context)
        func unchanged() -> Bool {
            Int64(current.switch.revision) == revision && (watched == nil || watched == current.switch.watchedDigest)
                && (knownSettings == nil || knownSettings == Int64(current.switch.settingsRevision ?? 0))
        }
        if unchanged() {
            context.logger.debug("Long-poll waiting", metadata: ["scanner": "\(scannerID)", "revision": "\(revision)", "wait": "\(wait)"])
        }
        while unchanged() {
            let remaining = deadline - waited.now
            guard remaining > .zero else { break }
            let (seen, tagsSeen, tags) = (Int64(current.switch.revision), current.tagsSeen, hub.watchedTags)
            let (settingsSeen, settings) = (current.settingsSeen, hub.settings)
            let change: @Sendable () async -> Void = {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await revisions.wait(untilAbove: seen) }
                    if watched != nil { group.addTask { await tags.wait(untilAbove: tagsSeen) } }
                    if knownSettings != nil { group.addTask { await settings.wait(untilAbove: settingsSeen) } }
                    await group.next()
                    group.cancelAll()
                }
            }
            guard await wake(after: remaining, on: clock, orWhen: change) == .changed else { break }
            if await SwitchHub.isRetired(revisions) { throw StoreError.notFound("scanner \(scannerID) was deleted") }
            current = try await servedSwitch(of: scannerID, withTags: watched != nil, context: context)
        }
        return try .json(current.switch)
    }

    /// The switch, with the watched list when asked, and the watched-list watermark read before
    /// it (a tag, beacon, placement or floor changed after that read raises it above, so a wait
    /// from it misses nothing).
    ///
    /// The keys of watched `irk` tags go only to the scanner itself (its own scanner token):
    /// an admin reading the same answer gets the fingerprints alone.
    private func servedSwitch(
        of scannerID: ScannerID, withTags: Bool, context: AppRequestContext
    ) async throws -> (switch: ScanSwitch, tagsSeen: Int64, settingsSeen: Int64) {
        let tagsSeen = await hub.watchedTags.value
        let settingsSeen = await hub.settings.value
        var scanSwitch = try await database.currentSwitch(of: scannerID)
        let requested = try await database.requestedSettings(of: scannerID)
        scanSwitch.settings = requested.settings
        scanSwitch.settingsRevision = requested.revision == 0 ? nil : requested.revision
        if withTags {
            let identities = try await database.watchedIdentities(of: scannerID)
            var keys: [String: IdentityResolvingKey] = [:]
            if context.principal?.role == .scanner, context.principal?.scannerID == scannerID, !identities.sealedKeys.isEmpty {
                let opened = self.keys.opening(identities.sealedKeys)
                keys = opened.keys
                if await unopenedKeys.noteChanged(to: opened.unopened), opened.unopened > 0 {
                    context.logger.error("Phone keys that do not open under this switchd's tag-keys.key are not sent", metadata: [
                        "scanner": "\(scannerID)", "unopened": "\(opened.unopened)",
                    ])
                }
            }
            scanSwitch = try WatchedTags.fitting(identities.all, keys: keys, in: scanSwitch)
            if await hub.noteWatchedLeftOut(scanSwitch.watchedLeftOut ?? 0, by: scannerID), let leftOut = scanSwitch.watchedLeftOut {
                context.logger.error("Watched list too long for the switch answer: the farthest beacons, then the newest tags, are left off", metadata: [
                    "scanner": "\(scannerID)", "tags": "\(identities.tags.count)", "beacons": "\(identities.beacons.count)",
                    "leftOut": "\(leftOut)", "limitBytes": "\(ScanSwitch.answerLimit)",
                ])
            }
        }
        return (scanSwitch, tagsSeen, settingsSeen)
    }

    /// Applies a ``SwitchPatch``; 200 with the switch as it now is. An ingest commit in progress
    /// ends after its current batch to let the change through (``SwitchWritesWaiting``).
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let scannerID = try context.pathScannerID()
        let patch = try await request.decodeJSON(SwitchPatch.self, context: context)
        let update = try await switchWrites.during {
            try await database.updateSwitch(of: scannerID, with: patch, at: .nowInMilliseconds())
        }
        if update.isNewRevision {
            await hub.publish(update.scanSwitch)
            context.logger.info("Switch changed", metadata: [
                "scanner": "\(scannerID)", "revision": "\(update.scanSwitch.revision)", "scanning": "\(update.scanSwitch.scanning)",
            ])
        }
        return try .json(update.scanSwitch)
    }
}
