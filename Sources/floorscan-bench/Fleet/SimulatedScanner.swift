import Dispatch
import Foundation
import NIOHTTP1
import ScanContract
import Synchronization

/// One scanner of the fleet, as scannerd behaves on the wire: it holds a switch long-poll at all
/// times, and (while uploading) posts one batch per interval under its latest revision, sending
/// a batch again after the wait a 503/429 names.
final class SimulatedScanner: Sendable {
    let index: Int
    let id: ScannerID
    let token: String
    let template: BatchTemplate
    /// The revision its long-poll last brought back.
    let revision: Atomic<Int>
    /// The location it surveys now (the flips alternate between two).
    let atFirstLocation = Atomic(true)

    /// How long a long-poll asks switchd to hold (scannerd's default).
    static let longPollWait = 30

    init(index: Int, id: ScannerID, token: String, revision: Int, template: BatchTemplate) {
        self.index = index
        self.id = id
        self.token = token
        self.revision = Atomic(revision)
        self.template = template
    }

    /// Holds the switch long-poll until cancelled, logging each new revision's arrival.
    func followSwitch(_ http: FleetHTTP, log: FlipLog, tally: FleetTally) async {
        var first = true
        while !Task.isCancelled {
            let seen = revision.load(ordering: .relaxed)
            if first {
                tally.armed.add(1, ordering: .relaxed)
                first = false
            }
            do {
                let answer = try await http.send(
                    .GET, "/v1/scanners/\(id)/switch?revision=\(seen)&wait=\(Self.longPollWait)", token: token,
                    timeout: .seconds(Self.longPollWait + 30)
                )
                let now = DispatchTime.now().uptimeNanoseconds
                guard answer.status == 200 else {
                    tally.update { $0.pollFailures += 1 }
                    try await Task.sleep(for: .seconds(1))
                    continue
                }
                let current = try JSONCoding.decoder().decode(ScanSwitch.self, from: answer.body).revision
                if current != seen {
                    revision.store(current, ordering: .relaxed)
                    log.arrived(scanner: index, revision: current, at: now)
                }
            } catch {
                if Task.isCancelled { return }
                tally.update { $0.pollFailures += 1 }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// Uploads one batch every `interval`, the first after `phase`, until cancelled. Batches that
    /// come due while an earlier one is still being sent are counted as offered but not sent
    /// (scannerd would carry their readings in its spool), so a switchd that falls behind shows
    /// as readings offered and not stored, not as a slower schedule.
    func upload(_ http: FleetHTTP, every interval: Duration, phase: Duration, readings: Int, tally: FleetTally) async {
        let clock = ContinuousClock()
        var due = clock.now + phase
        while !Task.isCancelled {
            do {
                try await clock.sleep(until: due)
            } catch {
                return
            }
            let counted = tally.measuring.load(ordering: .relaxed)
            if counted { tally.update { $0.offered += readings } }
            let body = template.body(scanner: id, revision: revision.load(ordering: .relaxed))
            while !Task.isCancelled {
                let sent = DispatchTime.now().uptimeNanoseconds
                do {
                    let answer = try await http.send(.POST, "/v1/measurements", token: token, body: body, timeout: .seconds(60))
                    let took = milliseconds(from: sent, to: DispatchTime.now().uptimeNanoseconds)
                    let acked = tally.acking.load(ordering: .relaxed)
                    if answer.status == 201 || answer.status == 200 {
                        tally.update { counts in
                            if counted { counts.postLatencies.append(took) }
                            if counted, acked { counts.stored += readings }
                        }
                        break
                    }
                    if answer.status == 503 || answer.status == 429, let wait = answer.retryAfter.flatMap(Int.init) {
                        tally.update { counts in
                            counts.busy += 1
                            if counted { counts.postLatencies.append(took) }
                        }
                        try await Task.sleep(for: .seconds(wait))
                        continue
                    }
                    tally.update { $0.failed += 1 }
                    break
                } catch {
                    if Task.isCancelled { return }
                    tally.update { $0.failed += 1 }
                    break
                }
            }
            due = due + interval
            while due < clock.now {
                if tally.measuring.load(ordering: .relaxed) { tally.update { $0.offered += readings } }
                due = due + interval
            }
        }
    }
}
