#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging

/// Runs a daemon's services side by side until a stop signal (SIGTERM, SIGINT) or
/// ``triggerGracefulShutdown()``, then shuts them down gracefully in reverse order: each service's
/// ``GracefulShutdown`` is triggered once every service after it has ended, so list a service
/// after those it uses. A service that ends (returns or throws) before the shutdown cancels the
/// others, and ``run()`` then throws its error, or ``ServiceEndedEarly`` when it returned.
public final class DaemonServiceGroup: Sendable {
    private enum Event: Sendable {
        case ended(index: Int, error: (any Error)?)
        case shutdownRequested
    }

    let services: [any DaemonService]
    let signals: [Int32]
    let logger: Logger
    private let requested = GracefulShutdown()

    /// - Parameter signals: the signals that start the graceful shutdown; their default action
    ///   (ending the process at once) is turned off while and after the group runs.
    public init(services: [any DaemonService], signals: [Int32] = [SIGTERM, SIGINT], logger: Logger) {
        self.services = services
        self.signals = signals
        self.logger = logger
    }

    /// Starts the graceful shutdown, as a stop signal does; the next ``run()`` ends at once.
    public func triggerGracefulShutdown() {
        requested.trigger()
    }

    /// Returns once every service has ended after a graceful shutdown; throws what a service threw
    /// (before or during the shutdown), or ``ServiceEndedEarly`` for one that returned before it.
    public func run() async throws {
        let sources = signals.map(watch)
        defer { sources.forEach { $0.cancel() } }
        let shutdowns = services.map { _ in GracefulShutdown() }
        try await withThrowingTaskGroup(of: Event.self) { group in
            for (index, service) in services.enumerated() {
                group.addTask {
                    do {
                        try await shutdowns[index].bound { try await service.run() }
                        return .ended(index: index, error: nil)
                    } catch {
                        return .ended(index: index, error: error)
                    }
                }
            }
            group.addTask { [requested] in
                try? await requested.wait()
                return .shutdownRequested
            }
            var running = Set(services.indices)
            var failure: (any Error)?
            // Until the shutdown is asked for or a service ends on its own.
            while failure == nil, let event = try await group.next() {
                guard case .ended(let index, let error) = event else { break }
                running.remove(index)
                failure = error ?? ServiceEndedEarly(service: name(of: services[index]))
                logger.error("a service ended before the shutdown; stopping the others", metadata: [
                    "service": "\(name(of: services[index]))", "error": "\(failure.map { "\($0)" } ?? "")",
                ])
            }
            if let failure {
                group.cancelAll()
                while try await group.next() != nil {}
                throw failure
            }
            // The graceful shutdown, last service first; one that ends out of turn is taken as it comes.
            for index in services.indices.reversed() where running.contains(index) {
                logger.debug("stopping service", metadata: ["service": "\(name(of: services[index]))"])
                shutdowns[index].trigger()
                while running.contains(index), let event = try await group.next() {
                    guard case .ended(let ended, let error) = event else { continue }
                    running.remove(ended)
                    if let error, failure == nil, !(error is CancellationError) { failure = error }
                }
            }
            if let failure { throw failure }
        }
    }

    /// The service's description when it has one, else its type.
    private func name(of service: any DaemonService) -> String {
        (service as? any CustomStringConvertible)?.description ?? "\(type(of: service))"
    }

    /// Turns the signal's default action off and triggers the graceful shutdown when it comes.
    private func watch(_ number: Int32) -> any DispatchSourceSignal {
        _ = signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number)
        source.setEventHandler { [logger, requested] in
            logger.info("stopping gracefully", metadata: ["signal": "\(number)"])
            requested.trigger()
        }
        source.resume()
        return source
    }
}

/// A service returned before the graceful shutdown asked it to.
public struct ServiceEndedEarly: Error, CustomStringConvertible {
    public let service: String

    public var description: String { "the service \(service) ended before the shutdown" }
}
