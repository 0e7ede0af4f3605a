#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// ``HTTPClient`` over the system's libcurl, every transfer run by ``CurlTransferLoop``'s one
/// thread, whose connections stay open between requests.
///
/// The answer's body is held to the request's `answerLimit` as it arrives: a declared
/// `Content-Length` over it fails the request before any body is read, and a body that grows past
/// it fails the request at that point and closes the connection, so a server sending without end
/// costs scannerd neither memory nor bandwidth (``CurlTransfer``).
///
/// Each request ends at the first of: the answer read whole, the answer over its limit, the
/// request's own timeout (libcurl's), the calling task's cancellation (`CancellationError`), or a
/// deadline a little past that timeout on the given clock, which also covers a body that trickles
/// in a few bytes at a time.
///
/// `https://` switchd addresses are verified against the system's trust store, or, given a CA
/// file, against the certificates in that file only (the building's CA, or switchd's own
/// self-signed certificate, which then acts as a pin).
struct CurlHTTPClient: HTTPClient {
    private let trust: CurlTrust
    private let deadline: @Sendable (Duration) -> Duration
    private let clock: any Clock<Duration>

    /// - Parameters:
    ///   - deadline: how long a request with the given timeout may take in all, body included,
    ///     before it fails as timed out.
    ///   - clock: what that deadline is measured on.
    init(deadline: @escaping @Sendable (Duration) -> Duration = { $0 + .seconds(5) }, clock: any Clock<Duration> = ContinuousClock()) {
        trust = .system
        self.deadline = deadline
        self.clock = clock
    }

    /// A client that trusts only the certificates in the PEM file at `caFile` for `https://`.
    ///
    /// - Throws: ``CAFileError`` when the file cannot be read or holds no PEM certificate.
    init(caFile: String, deadline: @escaping @Sendable (Duration) -> Duration = { $0 + .seconds(5) }) throws {
        let contents: Data
        do {
            contents = try Data(contentsOf: URL(fileURLWithPath: caFile))
        } catch {
            throw CAFileError(path: caFile, reason: "\(error)")
        }
        guard String(decoding: contents, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw CAFileError(path: caFile, reason: "it holds no PEM certificate")
        }
        trust = .caFile(caFile)
        self.deadline = deadline
        clock = ContinuousClock()
    }

    /// A client that trusts, for `https://`, only a server whose certificate's public key has
    /// this pin (`sha256//` and the base64 of its SubjectPublicKeyInfo's SHA-256, as switchd shows
    /// it with an enrolment code and libcurl's `--pinnedpubkey` takes it).
    ///
    /// - Throws: ``PinError`` when the pin is not of that form.
    init(pin: String, deadline: @escaping @Sendable (Duration) -> Duration = { $0 + .seconds(5) }) throws {
        guard CurlTrust.isPin(pin) else {
            throw PinError(pin: pin)
        }
        trust = .pin(pin)
        self.deadline = deadline
        clock = ContinuousClock()
    }

    /// The client for `--ca-file` or `--pin`, at most one of them given; the system's trust
    /// store when neither is.
    static func trusting(
        caFile: String?, pin: String?, deadline: @escaping @Sendable (Duration) -> Duration = { $0 + .seconds(5) }
    ) throws -> CurlHTTPClient {
        switch (caFile, pin) {
        case (let caFile?, nil): try CurlHTTPClient(caFile: caFile, deadline: deadline)
        case (nil, let pin?): try CurlHTTPClient(pin: pin, deadline: deadline)
        case (nil, nil): CurlHTTPClient(deadline: deadline)
        case (let caFile?, _?): throw CAFileError(path: caFile, reason: "given with --pin: trust one of them")
        }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let loop = try CurlTransferLoop.shared.get()
        let transfer = try CurlTransfer(request, trust: trust)
        let limit = deadline(request.timeout)
        let answer = try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
            group.addTask { try await loop.perform(transfer) }
            group.addTask {
                try await clock.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            do {
                return try await group.next() ?? nil
            } catch {
                if Task.isCancelled { throw CancellationError() }
                throw error
            }
        }
        guard let answer else {
            throw HTTPTransportError(code: .timedOut, reason: "no whole answer from \(request.url.host ?? "the server") within \(limit)")
        }
        return answer
    }
}

/// The `--ca-file` cannot serve as trust roots.
struct CAFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "--ca-file \(path): not a readable PEM certificate file (\(reason))" }
}

/// A `--pin` that is not one libcurl takes.
struct PinError: Error, CustomStringConvertible {
    let pin: String
    var description: String { "--pin \"\(pin.prefix(80))\": not sha256// and the base64 of 32 bytes, as switchd shows it with an enrolment code" }
}
