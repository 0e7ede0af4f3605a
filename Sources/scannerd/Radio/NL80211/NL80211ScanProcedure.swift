import CNetlinkGenl
import Glibc
import Logging
import RadioWire

/// One Wi-Fi scan over nl80211, the way iw does it but robust: the socket joins the "scan"
/// multicast group before triggering, then blocks (in `poll()` slices, so a stop is seen) until
/// NEW_SCAN_RESULTS or SCAN_ABORTED for the interface, then dumps the results.
///
/// - EBUSY on the trigger (another program's scan in flight): waits for that scan's results.
/// - EPERM on the trigger: throws ``NL80211Error/permissionDenied(interface:)``; the caller then
///   uses ``waitAndDump(since:)``, which reads the kernel's cached results.
/// - ENOBUFS (the kernel dropped messages for want of room): a new socket with twice the buffer;
///   while waiting, the trigger is sent again to learn whether the scan is still running (EBUSY)
///   or ended unseen (a new scan starts); during a dump, the dump starts over. At most
///   `limits.maximumResyncs` times per scan, so a socket that keeps overrunning fails instead of spinning.
/// - A dump the kernel marks inconsistent (NLM_F_DUMP_INTR: results changed mid-dump) is redone.
/// - Entries whose last sighting (CLOCK_BOOTTIME) is older than the scan are dropped.
struct NL80211ScanProcedure {
    let interface: WiFiInterface
    let settings: WiFiScanSettings
    /// Opens a channel with the given receive buffer, in bytes.
    let connect: (Int) throws -> any NL80211Channel
    let boottime: () -> UInt64
    let stop: StopSignal
    let logger: Logger

    var limits = Limits()

    /// Buffer sizes, retry budgets and timeouts.
    struct Limits: Sendable {
        var initialReceiveBuffer = 256 * 1024
        var maximumReceiveBuffer = 16 * 1024 * 1024
        var maximumResyncs = 4
        var maximumDumpRetries = 3
        /// How long a scan may take before it counts as lost (passive scans of every channel are slow).
        var completionTimeout: Duration = .seconds(30)
        /// How long ``waitAndDump(since:)`` waits for somebody else's scan before dumping anyway.
        var cachedResultsWait: Duration = .seconds(10)
        /// A dump that sends nothing for this long has stalled.
        var dumpStallTimeout: Duration = .seconds(5)
        /// Slices of waiting between looks at the stop signal.
        var readSlice: Duration = .milliseconds(200)
        /// Results of a scan another program started (EBUSY) count from this long before the wait began.
        var inFlightAllowance: Duration = .seconds(15)
    }

    /// How the results were obtained.
    enum Kind: String, Sendable {
        /// This scan's own trigger.
        case triggered
        /// Another program's scan, which was in flight (EBUSY).
        case inFlight
        /// The kernel's cache, without a trigger (no CAP_NET_ADMIN).
        case cached
    }

    struct Outcome: Sendable {
        var bsses: [NL80211BSS]
        var kind: Kind
        /// Entries dropped because their last sighting was older than the scan.
        var stale = 0
        /// Scan-result messages that did not decode: skipped.
        var malformed: [WireError] = []
        /// Times the socket overran and was replaced.
        var resyncs = 0
    }

    /// Triggers a scan, waits for it and dumps its results. Throws ``NL80211Error`` (EPERM as
    /// ``NL80211Error/permissionDenied(interface:)``), `CancellationError` when stopped, and the
    /// channel's errors other than ENOBUFS.
    func triggerWaitDump() throws -> Outcome {
        var session = try Session(self)
        defer { session.channel.close() }
        let start = boottime()
        let kind = try session.waitForCompletion(triggering: true)
        let cutoff = kind == .triggered ? start : start - min(start, UInt64(limits.inFlightAllowance / .nanoseconds(1)))
        return try session.dump(kind: kind, since: cutoff)
    }

    /// Without triggering: waits up to `limits.cachedResultsWait` for a scan somebody else makes, then
    /// dumps the kernel's cached results, keeping those seen since `since` (CLOCK_BOOTTIME ns; all
    /// when nil).
    func waitAndDump(since: UInt64?) throws -> Outcome {
        var session = try Session(self)
        defer { session.channel.close() }
        _ = try session.waitForCompletion(triggering: false)
        return try session.dump(kind: .cached, since: since)
    }
}

extension NL80211ScanProcedure {
    /// What one read gave.
    fileprivate enum Read {
        case messages([NetlinkMessage])
        /// Nothing within the read slice.
        case nothing
        /// ENOBUFS: the kernel dropped messages; the channel must be resynchronised.
        case overrun
        /// A datagram that does not decode: skipped.
        case undecodable(WireError)
    }

    /// The next datagram's messages. Throws `CancellationError` when stopped, and the channel's
    /// errors other than ENOBUFS.
    fileprivate func read(_ channel: any NL80211Channel) throws -> Read {
        if stop.isStopped { throw CancellationError() }
        let datagram: [UInt8]?
        do {
            datagram = try channel.receive(timeout: limits.readSlice)
        } catch let error as SystemError where error.errno == ENOBUFS {
            return .overrun
        }
        guard let datagram else { return .nothing }
        do {
            return .messages(try NetlinkMessage.parse(datagram))
        } catch {
            return .undecodable(error)
        }
    }
}

extension NL80211ScanProcedure {
    /// The state of one scan: its channel (replaced after an overrun) and what was learnt so far.
    fileprivate struct Session {
        let procedure: NL80211ScanProcedure
        var channel: any NL80211Channel
        var receiveBuffer: Int
        var resyncs = 0
        var malformed: [WireError] = []

        init(_ procedure: NL80211ScanProcedure) throws {
            self.procedure = procedure
            receiveBuffer = procedure.limits.initialReceiveBuffer
            channel = try procedure.connect(receiveBuffer)
        }

        var name: String { procedure.interface.name }
        var index: UInt32 { procedure.interface.index }

        /// Replaces the channel after ENOBUFS with one of twice the buffer. Throws when this scan
        /// has resynchronised too often already.
        mutating func resynchronize(_ phase: String) throws {
            resyncs += 1
            guard resyncs <= procedure.limits.maximumResyncs else {
                throw NL80211Error.tooManyOverruns(interface: name, count: resyncs)
            }
            receiveBuffer = min(receiveBuffer * 2, procedure.limits.maximumReceiveBuffer)
            procedure.logger.info("the nl80211 socket overran; resynchronising", metadata: [
                "interface": "\(name)", "phase": "\(phase)", "receiveBuffer": "\(receiveBuffer)",
            ])
            channel.close()
            channel = try procedure.connect(receiveBuffer)
        }

        mutating func skip(_ error: WireError) {
            malformed.append(error)
            procedure.logger.debug("skipped a netlink datagram that does not decode", metadata: ["error": "\(error)"])
        }

        /// What a trigger is known to have done.
        enum Trigger { case sent(UInt32), ours, inFlight }

        /// Blocks until the scan completes. With `triggering`, sends the trigger first and returns
        /// whose scan completed; without, returns `.cached` when a scan completed or the wait ended.
        mutating func waitForCompletion(triggering: Bool) throws -> Kind {
            let clock = ContinuousClock()
            let deadline = clock.now + (triggering ? procedure.limits.completionTimeout : procedure.limits.cachedResultsWait)
            var ourScanStarted = false
            var trigger: Trigger? = triggering ? .sent(try channel.send(.triggerScan(interfaceIndex: index, settings: procedure.settings))) : nil
            while clock.now < deadline {
                let messages: [NetlinkMessage]
                switch try procedure.read(channel) {
                case .nothing:
                    continue
                case .undecodable(let error):
                    skip(error)
                    continue
                case .overrun:
                    try resynchronize("waiting for results")
                    // The lost message may have been the completion: ask again. EBUSY means still scanning.
                    if trigger != nil {
                        trigger = .sent(try channel.send(.triggerScan(interfaceIndex: index, settings: procedure.settings)))
                    }
                    continue
                case .messages(let read):
                    messages = read
                }
                for message in messages {
                    if case .sent(let sequence) = trigger, let answer = try? message.error(), answer.requestSequence == sequence {
                        trigger = try triggerAnswered(answer, afterOurs: ourScanStarted)
                        if case .ours = trigger { ourScanStarted = true }
                        continue
                    }
                    guard message.sequence == 0, let event = try? message.genericNetlink() else { continue }
                    let completed = CInt(event.header.command) == CInt(NL80211_CMD_NEW_SCAN_RESULTS.rawValue)
                    let aborted = CInt(event.header.command) == CInt(NL80211_CMD_SCAN_ABORTED.rawValue)
                    guard completed || aborted else { continue }
                    let ours = (try? event.attributes.first(UInt16(NL80211_ATTR_IFINDEX.rawValue))?.u32()) == index
                    switch trigger {
                    case nil:
                        if ours { return .cached }
                    case .sent:
                        continue // A scan that ended before ours was accepted or refused.
                    case .ours:
                        if ours { if aborted { throw NL80211Error.aborted(interface: name) } else { return .triggered } }
                    case .inFlight:
                        if ours && !aborted { return .inFlight }
                        // Another interface's scan, or an aborted one, ended: the radio is free, so scan now.
                        trigger = .sent(try channel.send(.triggerScan(interfaceIndex: index, settings: procedure.settings)))
                    }
                }
            }
            guard triggering else { return .cached }
            throw NL80211Error.timedOut(interface: name, waiting: "NEW_SCAN_RESULTS or SCAN_ABORTED")
        }

        /// `afterOurs`: this scan's own trigger was accepted before (the trigger was sent again
        /// after an overrun), so EBUSY means that scan is still running.
        private func triggerAnswered(_ answer: NetlinkErrorMessage, afterOurs: Bool) throws -> Trigger {
            let code = -answer.error
            switch code {
            case 0:
                return .ours
            case EBUSY where afterOurs:
                return .ours
            case EBUSY:
                procedure.logger.info("another scan is in flight; waiting for its results", metadata: ["interface": "\(name)"])
                return .inFlight
            case EPERM, EACCES:
                throw NL80211Error.permissionDenied(interface: name)
            case ENETDOWN:
                throw NL80211Error.interfaceDown(name)
            default:
                throw NL80211Error.triggerRefused(interface: name, errno: code, message: answer.message)
            }
        }

        /// Dumps the results, keeping entries seen at or after `since`.
        mutating func dump(kind: Kind, since: UInt64?) throws -> Outcome {
            for _ in 0...procedure.limits.maximumDumpRetries {
                guard let result = try dumpOnce() else { continue }
                guard result.consistent else {
                    procedure.logger.debug("the scan results changed during the dump; dumping again", metadata: ["interface": "\(name)"])
                    continue
                }
                let kept = result.bsses.filter { bss in since.map { cutoff in bss.lastSeenBoottime.map { $0 >= cutoff } ?? true } ?? true }
                return Outcome(bsses: kept, kind: kind, stale: result.bsses.count - kept.count, malformed: malformed, resyncs: resyncs)
            }
            throw NL80211Error.timedOut(interface: name, waiting: "consistent scan-results dump")
        }

        /// One dump: the BSS and whether the kernel kept it consistent. Nil when the socket overran
        /// and was replaced, so the dump must start over.
        private mutating func dumpOnce() throws -> (bsses: [NL80211BSS], consistent: Bool)? {
            let sequence = try channel.send(.getScan(interfaceIndex: index))
            let clock = ContinuousClock()
            var lastData = clock.now
            var bsses: [NL80211BSS] = []
            var consistent = true
            while true {
                let messages: [NetlinkMessage]
                switch try procedure.read(channel) {
                case .undecodable(let error):
                    skip(error)
                    continue
                case .nothing:
                    if clock.now - lastData > procedure.limits.dumpStallTimeout {
                        throw NL80211Error.timedOut(interface: name, waiting: "end of the scan-results dump")
                    }
                    continue
                case .overrun:
                    try resynchronize("dumping results")
                    return nil
                case .messages(let read):
                    messages = read
                }
                lastData = clock.now
                for message in messages where message.sequence == sequence {
                    if message.flags & UInt16(NLM_F_DUMP_INTR) != 0 { consistent = false }
                    switch CInt(message.type) {
                    case NLMSG_DONE:
                        return (bsses, consistent)
                    case NLMSG_ERROR:
                        guard let answer = try? message.error(), answer.error != 0 else { continue }
                        throw NL80211Error.dumpRefused(interface: name, errno: -answer.error, message: answer.message)
                    default:
                        do {
                            let (header, attributes) = try message.genericNetlink()
                            guard CInt(header.command) == CInt(NL80211_CMD_NEW_SCAN_RESULTS.rawValue),
                                  let bss = try NL80211BSS.fromScanResult(attributes) else { continue }
                            bsses.append(bss)
                        } catch {
                            malformed.append(error)
                        }
                    }
                }
            }
        }
    }
}
