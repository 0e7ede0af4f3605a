#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Logging

/// The BLE source's work on its own thread: arm the controller, read advertisements until told to
/// stop, and heal a lost controller.
///
/// A controller that goes down or away (reads fail with `ENETDOWN`, `ENODEV`, `EIO`, `EPIPE`, or
/// it is no longer up after a quiet spell) is logged, counted and recorded on the event log, then
/// reopened and re-armed with backoff until it is back or the loop is stopped; the stream of
/// advertisements goes on meanwhile. A malformed report is counted and skipped.
struct HCIScanLoop: Sendable {
    let device: String
    /// Read when the loop starts; a scan session that ends and starts again takes new settings.
    var settings: HCIScanSettings
    /// Opens the controller's channel; ``HCISocket/init(device:)`` outside tests.
    let open: @Sendable (String) throws -> any HCIChannel
    let counters: RadioCounters
    let events: EventLog
    let logger: Logger

    /// How long one read waits before the stop signal is looked at again.
    var readSlice: Duration = .milliseconds(250)
    /// After this long without a packet, whether the controller is still up is checked.
    var healthCheckAfter: Duration = .seconds(1)
    /// After this long without an advertisement, scanning is armed again: another program (or
    /// the kernel) may have turned it off.
    var rearmAfterSilence: Duration = .seconds(30)
    var retryInitial: Duration = .milliseconds(500)
    var retryMaximum: Duration = .seconds(10)
    var commandTimeout: Duration = .seconds(2)
    /// After a packet, the loop sleeps this long, then reads every packet waiting and hands them
    /// on together: the radio's thread and the threads downstream (the scan session's, the
    /// spool's) wake once per group, not once per advertisement, and at hundreds a second a
    /// group's wake-ups cost more than decoding and spooling its advertisements (`scannerd
    /// bench`: 20 ms gave about 45 groups a second at 500 advertisements/s, 50 ms about 19).
    /// The kernel holds the packets meanwhile (a few dozen in its socket buffer of hundreds);
    /// readings are later by at most this, against the spool's 250 ms batch age.
    var gatherWindow: Duration = .milliseconds(50)
    /// The most packets in one group. A group that reaches it is handed on at once and the
    /// packets still waiting are read on without waiting (no `poll()`, no gather window), so a
    /// controller sending faster than a window's worth is drained as fast as it sends.
    static let groupLimit = 64

    /// Read errors that mean the controller went down or away, and are recovered from.
    static let lostErrnos: Set<CInt> = [ENETDOWN, ENODEV, EIO, EPIPE, EBADFD, ENXIO]

    private struct Armed {
        let channel: any HCIChannel
        let commands: HCIScanCommandSet
    }

    private enum Ending {
        case stopped
        case lost(String)
    }

    /// Scans until `stop` is set, then disables scanning and closes the socket; `deliver` gets the
    /// advertisements of each gathered group (see ``gatherWindow``), never an empty one. Throws
    /// when the controller cannot be opened and armed at the start (no such device, no
    /// permission, a command refused), or on a read error that is not a lost controller.
    func run(stop: StopSignal, deliver: ([HeardAdvertisement]) -> Void) throws {
        var armed = try arm()
        logger.info("BLE scanning", metadata: [
            "device": "\(device)", "commands": "\(armed.commands.rawValue)", "scan": "\(settings.scanType.rawValue)",
            "intervalMs": "\(settings.intervalMilliseconds)", "windowMs": "\(settings.windowMilliseconds)",
        ])
        while true {
            switch try listen(armed, stop: stop, deliver: deliver) {
            case .stopped:
                disarm(armed)
                return
            case .lost(let reason):
                armed.channel.close()
                counters.lost(device)
                logger.warning("radio lost; reopening it with backoff", metadata: ["device": "\(device)", "why": "\(reason)"])
                events.record(.radioLost(radio: "ble", device: device, error: reason))
                guard let recovered = rearm(stop: stop) else { return }
                armed = recovered.armed
                counters.recovered(device)
                logger.notice("radio recovered", metadata: [
                    "device": "\(device)", "attempts": "\(recovered.attempts)", "commands": "\(armed.commands.rawValue)",
                ])
                events.record(.radioRecovered(radio: "ble", device: device, attempts: recovered.attempts))
            }
        }
    }

    private func arm() throws -> Armed {
        let channel = try open(device)
        do {
            let commands = try controller(channel).startScanning(settings)
            return Armed(channel: channel, commands: commands)
        } catch {
            channel.close()
            throw error
        }
    }

    /// Nil when stopped before the controller came back; otherwise it and the attempts it took.
    private func rearm(stop: StopSignal) -> (armed: Armed, attempts: Int)? {
        var backoff = Backoff(initial: retryInitial, maximum: retryMaximum)
        var attempts = 0
        while !stop.wait(for: backoff.nextDelay()) {
            attempts += 1
            do {
                return (try arm(), attempts)
            } catch {
                logger.info("the controller is not back yet", metadata: ["device": "\(device)", "attempt": "\(attempts)", "error": "\(error)"])
            }
        }
        return nil
    }

    private func listen(_ armed: Armed, stop: StopSignal, deliver: ([HeardAdvertisement]) -> Void) throws -> Ending {
        let clock = ContinuousClock()
        var lastPacket = clock.now
        var lastAdvertisement = clock.now
        // Set when the last group was full: packets are still waiting, and are read on at once.
        var backlog = false
        while !stop.isStopped {
            let packet: [UInt8]?
            do {
                packet = try armed.channel.receive(timeout: backlog ? .zero : readSlice)
            } catch let error as SystemError where Self.lostErrnos.contains(error.errno) {
                return .lost("\(error)")
            }
            guard let packet else {
                backlog = false
                if clock.now - lastPacket >= healthCheckAfter {
                    guard armed.channel.isUp() else { return .lost("\(device) is down or no longer registered") }
                    lastPacket = clock.now
                }
                if clock.now - lastAdvertisement >= rearmAfterSilence {
                    lastAdvertisement = clock.now
                    try rearmInPlace(armed)
                }
                continue
            }
            lastPacket = clock.now
            var group = [HeardAdvertisement.decode(packet, at: Date())]
            let ending = gather(into: &group, from: armed, until: backlog ? lastPacket : lastPacket + gatherWindow, stop: stop)
            var heardTogether: [HeardAdvertisement] = []
            for decoded in group {
                for error in decoded.malformed {
                    counters.add(\.malformedReports)
                    logger.debug("skipped a malformed advertising report", metadata: ["device": "\(device)", "error": "\(error)"])
                }
                counters.add(\.advertisements, decoded.heard.count)
                heardTogether += decoded.heard
            }
            if !heardTogether.isEmpty {
                lastAdvertisement = clock.now
                deliver(heardTogether)
            }
            switch ending {
            case .more: backlog = false
            case .full: backlog = true
            case .ended(let ending): return ending
            case .failed(let error): throw error
            }
        }
        return .stopped
    }

    private enum GatherEnd {
        /// The window closed, or a read came back empty: listening goes on.
        case more
        /// The group reached ``groupLimit``: more packets may be waiting.
        case full
        case ended(Ending)
        case failed(any Error)
    }

    /// Sleeps until `deadline` (or the stop signal; a deadline passed does not sleep), then reads
    /// and decodes the packets waiting, up to ``groupLimit`` in the group.
    /// A failed read ends the gathering; what was gathered before it is handed on all the same.
    private func gather(
        into group: inout [HeardAdvertisement.Packet], from armed: Armed, until deadline: ContinuousClock.Instant, stop: StopSignal
    ) -> GatherEnd {
        if stop.wait(for: deadline - ContinuousClock.now) { return .ended(.stopped) }
        while !stop.isStopped {
            guard group.count < Self.groupLimit else { return .full }
            do {
                guard let packet = try armed.channel.receive(timeout: .zero) else { return .more }
                group.append(HeardAdvertisement.decode(packet, at: Date()))
            } catch let error as SystemError where Self.lostErrnos.contains(error.errno) {
                return .ended(.lost("\(error)"))
            } catch {
                return .failed(error)
            }
        }
        return .ended(.stopped)
    }

    /// Turns scanning on again after a long silence. A lost controller shows up on the next read.
    private func rearmInPlace(_ armed: Armed) throws {
        logger.info("no advertisement for a while; arming the scan again", metadata: ["device": "\(device)"])
        do {
            try controller(armed.channel).run(armed.commands.enable(true), tolerating: [HCIError.commandDisallowed])
        } catch let error as SystemError where Self.lostErrnos.contains(error.errno) {
            return
        } catch let error as HCIError {
            logger.warning("arming the scan again failed", metadata: ["device": "\(device)", "error": "\(error)"])
        }
    }

    private func disarm(_ armed: Armed) {
        do {
            try controller(armed.channel).stopScanning(armed.commands)
        } catch {
            logger.info("could not disable scanning; the controller may be gone", metadata: ["device": "\(device)", "error": "\(error)"])
        }
        armed.channel.close()
    }

    private func controller(_ channel: any HCIChannel) -> HCIController {
        HCIController(channel: channel, device: device, commandTimeout: commandTimeout)
    }
}
