import Logging
import DaemonSupport
import Synchronization

/// One BLE loop for both roles of `scannerd run --listen`: it runs `source` for as long as
/// scannerd runs and hands every group heard to whoever takes it at that moment: the scan
/// session in progress (``advertisements()``, as any ``BLEScanner``) and the listening role
/// (``hearings()``). One controller, one scan, both roles at once.
///
/// A consumer slower than the radio loses its oldest groups beyond ``RadioThread/bufferLimit``,
/// as it would from the radio itself. When the source ends or fails, every consumer's stream
/// ends with it (with the source's error) and later ones end at once; the service itself then
/// waits for the shutdown, so scannerd goes on scanning Wi-Fi as it does when the radio of a
/// session fails.
final class BLEFanOut: BLEScanner, DaemonService, CustomStringConvertible {
    private enum Listener: Sendable {
        case readings(AsyncThrowingStream<[RadioReading], any Error>.Continuation)
        case hearings(AsyncThrowingStream<[TrackHearing], any Error>.Continuation)
        case session(AsyncThrowingStream<BLEHeardGroup, any Error>.Continuation)

        func take(_ group: BLEHeardGroup) {
            switch self {
            case .session(let continuation):
                let taken = group.forSession
                if !taken.isEmpty { continuation.yield(taken) }
            case .readings(let continuation): if !group.readings.isEmpty { continuation.yield(group.readings) }
            case .hearings(let continuation): if !group.hearings.isEmpty { continuation.yield(group.hearings) }
            }
        }

        func finish(throwing error: (any Error)?) {
            switch self {
            case .readings(let continuation): continuation.finish(throwing: error)
            case .hearings(let continuation): continuation.finish(throwing: error)
            case .session(let continuation): continuation.finish(throwing: error)
            }
        }
    }

    private struct Listeners {
        var byID: [Int: Listener] = [:]
        var nextID = 0
        var ended = false
        var endError: (any Error)?
    }

    let source: any BLEScanner
    let logger: Logger
    private let listeners = Mutex(Listeners())

    var description: String { "BLEFanOut" }

    init(source: any BLEScanner, logger: Logger) {
        self.source = source
        self.logger = logger
    }

    /// The iBeacon readings heard from now on, for a scan session.
    func advertisements() -> AsyncThrowingStream<[RadioReading], any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [RadioReading].self, bufferingPolicy: .bufferingNewest(RadioThread.bufferLimit))
        if let id = add(.readings(continuation)) {
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
        }
        return stream
    }

    /// Every advertisement heard from now on, named by its tag identities, for the listening role.
    func hearings() -> AsyncThrowingStream<[TrackHearing], any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [TrackHearing].self, bufferingPolicy: .bufferingNewest(RadioThread.bufferLimit))
        if let id = add(.hearings(continuation)) {
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
        }
        return stream
    }

    /// The readings and the telemetry heard from now on, for a scan session.
    func sessionGroups() -> AsyncThrowingStream<BLEHeardGroup, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: BLEHeardGroup.self, bufferingPolicy: .bufferingNewest(RadioThread.bufferLimit))
        if let id = add(.session(continuation)) {
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
        }
        return stream
    }

    /// Both at once, as the source gives them.
    func heardGroups() -> AsyncThrowingStream<BLEHeardGroup, any Error> {
        source.heardGroups()
    }

    /// Runs the source until the graceful shutdown; see the type's notes for a source that ends first.
    func run() async throws {
        var failure: (any Error)?
        do {
            try await GracefulShutdown.cancelling { [self] in
                for try await group in source.heardGroups() { deliver(group) }
            }
        } catch {
            failure = error
        }
        end(throwing: GracefulShutdown.isUnderway ? nil : failure)
        guard !GracefulShutdown.isUnderway, !Task.isCancelled else { return }
        if let failure {
            logger.error("the BLE radio failed; no advertisements for scanning or listening until restarted", metadata: ["error": "\(failure)"])
        } else {
            logger.warning("the BLE radio stopped delivering advertisements; none for scanning or listening until restarted")
        }
        do {
            try await GracefulShutdown.wait()
        } catch {
            return
        }
    }

    /// Nil when the source has ended already: the listener is finished at once.
    private func add(_ listener: Listener) -> Int? {
        let (id, endError): (Int?, (any Error)?) = listeners.withLock { listeners in
            guard !listeners.ended else { return (nil, listeners.endError) }
            let id = listeners.nextID
            listeners.nextID += 1
            listeners.byID[id] = listener
            return (id, nil)
        }
        if id == nil { listener.finish(throwing: endError) }
        return id
    }

    private func remove(_ id: Int) {
        _ = listeners.withLock { $0.byID.removeValue(forKey: id) }
    }

    /// Outside the lock: a finished stream's termination handler takes it.
    private func deliver(_ group: BLEHeardGroup) {
        for listener in listeners.withLock({ Array($0.byID.values) }) { listener.take(group) }
    }

    private func end(throwing error: (any Error)?) {
        let ended = listeners.withLock { listeners in
            listeners.ended = true
            listeners.endError = error
            defer { listeners.byID = [:] }
            return Array(listeners.byID.values)
        }
        for listener in ended { listener.finish(throwing: error) }
    }
}
