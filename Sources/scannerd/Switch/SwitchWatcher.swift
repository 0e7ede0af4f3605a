import Logging
import ScanContract
import DaemonSupport

/// Follows this scanner's switch on switchd by long-polling and hands every new revision to the
/// scan controller.
///
/// The last known switch is saved in the state directory and handed on first at startup, so a
/// restart without switchd resumes what was running. When switchd cannot be reached or answers
/// 5xx, the watcher keeps the last switch and retries with backoff (100 ms doubling to 5 s); a
/// 404 means this scanner is not registered, said clearly in the log, and retried the same way.
/// The retry delays run on `clock`.
///
/// The tags switchd asks the listening role to watch come with the switch: the watcher waits on
/// them too (it tells switchd the list it holds), hands each new list to `watchLists`, and a
/// switch that changed only in its list is not a new revision for the scan controller.
///
/// Settings from switchd come with the switch under their own revision (it tells switchd the
/// one it holds, `settings=`): a new settings revision goes to the scan controller, which
/// applies them (``LiveSettings``). They are not resumed from the saved switch: until switchd
/// answers, the local settings hold.
struct SwitchWatcher: DaemonService, CustomStringConvertible {
    let api: SwitchdAPI
    let scannerID: ScannerID
    let store: SwitchStore
    let switches: AsyncStream<ScanSwitch>.Continuation
    let events: EventLog
    let logger: Logger
    var clock: any Clock<Duration> = ContinuousClock()
    /// Where the watched tags go (the listening role); nil without one.
    var watchLists: AsyncStream<[TagIdentity]>.Continuation?

    /// How the service group names it in its logs.
    var description: String { "SwitchWatcher" }

    /// How long switchd may hold one long-poll (its default; its maximum is 60 s).
    static let longPollWait: Duration = .seconds(30)
    static let initialRetryDelay: Duration = .milliseconds(100)
    static let maximumRetryDelay: Duration = .seconds(5)

    /// Does not finish `switches` when it ends: the scan controller is a service of its own and
    /// stops when the service group tells it to. (Ending its stream here made it return before
    /// its turn, which the group reports as a failure: a non-zero exit on SIGTERM.)
    func run() async throws {
        var resumed = loadSaved()
        // Settings are not resumed from the saved switch: without switchd, the local ones hold.
        resumed?.settings = nil
        resumed?.settingsRevision = nil
        let saved = resumed
        if let saved {
            logger.info("resuming the last known switch until switchd answers", metadata: metadata(of: saved))
            switches.yield(saved)
            watchLists?.yield(listed(saved))
        }
        do {
            try await GracefulShutdown.cancelling { [self] in
                try await watch(from: saved)
            }
        } catch is CancellationError {
            logger.debug("stopped watching the switch")
        }
    }

    private func watch(from saved: ScanSwitch?) async throws {
        var known = saved
        var backoff = Backoff(initial: Self.initialRetryDelay, maximum: Self.maximumRetryDelay)
        while true {
            do {
                let current = try await api.scanSwitch(
                    of: scannerID, afterRevision: known?.revision, watching: watchLists == nil ? nil : known?.watchedDigest ?? WatchedTags.digest(of: []),
                    settings: known?.settingsRevision ?? 0, wait: Self.longPollWait
                )
                backoff.reset()
                // A phone's key that arrives for a fingerprint already held is a new list too.
                let newList = current.watchedDigest != known?.watchedDigest
                let newSettings = current.settingsRevision != known?.settingsRevision
                guard current.revision != known?.revision || (newList && watchLists != nil) || newSettings else { continue }
                if current.revision != known?.revision {
                    events.record(.switchReceived(revision: current.revision, scanning: current.scanning, mode: current.mode))
                    switches.yield(current)
                    logger.info("switch changed", metadata: metadata(of: current))
                } else if newSettings {
                    // The scan controller applies them (and waits for nothing else).
                    switches.yield(current)
                    logger.info("settings changed", metadata: ["settingsRevision": "\(current.settingsRevision.map(String.init) ?? "none")"])
                }
                if let watchLists, newList || current.settings?.listen != known?.settings?.listen {
                    watchLists.yield(listed(current))
                    logger.info("watched tags changed", metadata: ["tags": "\(current.watchedTags?.count ?? 0)"])
                    if let leftOut = current.watchedLeftOut {
                        logger.warning("switchd left watched identities off to fit its answer", metadata: ["leftOut": "\(leftOut)"])
                    }
                }
                known = current
                save(current)
                continue
            } catch is CancellationError {
                throw CancellationError()
            } catch let error as SwitchdAPIError where error.status == 404 {
                logger.error("this scanner is not registered on switchd; register it with POST /v1/scanners", metadata: [
                    "scannerID": "\(scannerID)", "switchd": "\(api.baseURL)", "error": "\(error)",
                ])
            } catch {
                logger.warning("could not get the switch from switchd; keeping the last known one", metadata: [
                    "switchd": "\(api.baseURL)", "error": "\(error)",
                    "revision": "\(known.map { String($0.revision) } ?? "none")",
                ])
            }
            try await clock.sleep(for: backoff.nextDelay())
        }
    }

    /// The watched list the listening role gets: none while switchd's settings turn it off
    /// (`listen: false`), so it forwards nothing.
    private func listed(_ scanSwitch: ScanSwitch) -> [TagIdentity] {
        scanSwitch.settings?.listen == false ? [] : scanSwitch.watchedIdentities
    }

    /// A saved switch that cannot be read, or belongs to another scanner, is not used (logged).
    private func loadSaved() -> ScanSwitch? {
        do {
            guard let saved = try store.load() else { return nil }
            guard saved.scannerID == scannerID else {
                logger.notice("ignoring the saved switch of another scanner", metadata: ["saved": "\(saved.scannerID)"])
                return nil
            }
            return saved
        } catch {
            logger.error("could not read the saved switch; waiting for switchd", metadata: [
                "file": "\(store.path)", "error": "\(error)",
            ])
            return nil
        }
    }

    private func save(_ scanSwitch: ScanSwitch) {
        do {
            try store.save(scanSwitch)
        } catch {
            logger.error("could not save the switch; a restart without switchd will not resume it", metadata: [
                "file": "\(store.path)", "error": "\(error)",
            ])
        }
    }

    private func metadata(of scanSwitch: ScanSwitch) -> Logger.Metadata {
        [
            "revision": "\(scanSwitch.revision)", "scanning": "\(scanSwitch.scanning)", "mode": "\(scanSwitch.mode.rawValue)",
            "locationID": "\(scanSwitch.locationID.map(String.init) ?? "none")",
        ]
    }
}
