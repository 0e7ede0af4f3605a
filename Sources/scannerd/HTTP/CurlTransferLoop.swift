import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The one thread that runs every transfer of scannerd's HTTP client, through a libcurl multi
/// handle: however many requests are in flight (the switch's long-poll beside an upload and a
/// counters report), scannerd spends one thread on HTTP, and no Swift task blocks in libcurl.
///
/// The multi handle keeps finished transfers' connections open, so the next request to switchd
/// reuses one instead of connecting (and, over `https://`, shaking hands) again. The thread sleeps
/// in `curl_multi_poll` until a socket or one of libcurl's timers needs it, or until
/// ``start(_:)`` or ``cancel(_:)`` wakes it with `curl_multi_wakeup`: nothing polls on a timer.
final class CurlTransferLoop: @unchecked Sendable {
    /// The process's loop, made on first use; its error (no thread, no multi handle) fails every request.
    static let shared = Result { try CurlTransferLoop() }

    private enum Command {
        case start(CurlTransfer)
        case cancel(CurlTransfer)
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex<[Command]>([])
    /// Transfers libcurl is running, by easy handle; only the loop's thread touches it.
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    /// Connections libcurl holds at once, in use or idle; past it, the oldest idle one is closed.
    /// Far more than scannerd has open together (the long-poll, an upload, a counters report, the
    /// radio map, a position), so an idle connection to switchd is never closed to make room.
    static let keptConnections = 32
    /// The longest sleep with nothing to do; libcurl's own timers and wakeups cut it short.
    static let idleWait: Int32 = 60_000

    /// - Throws: ``HTTPTransportError`` when libcurl cannot start, ``SystemError`` when no thread can.
    private init() throws {
        guard floorscan_curl_global_init() == CURLE_OK, let multi = curl_multi_init() else {
            throw HTTPTransportError(code: .cannotLoadFromNetwork, reason: "libcurl could not start (curl_global_init or curl_multi_init failed)")
        }
        self.multi = multi
        _ = floorscan_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, Self.keptConnections)
        try OSThread.start(name: "scannerd-http") { [self] in run() }
    }

    /// Runs `transfer` and returns its answer. Cancelling the calling task removes the transfer
    /// from libcurl at once (closing its connection) and throws `CancellationError`.
    func perform(_ transfer: CurlTransfer) async throws -> HTTPResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.deliverAnswer(to: continuation)
                send(.start(transfer))
            }
        } onCancel: {
            send(.cancel(transfer))
        }
    }

    private func send(_ command: Command) {
        inbox.withLock { $0.append(command) }
        curl_multi_wakeup(multi)
    }

    private func run() {
        while true {
            for command in inbox.withLock({ commands in defer { commands = [] }; return commands }) {
                obey(command)
            }
            var stillRunning: Int32 = 0
            curl_multi_perform(multi, &stillRunning)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                    let transfer = running.removeValue(forKey: handle)
                else { continue }
                let result = message.pointee.data.result
                curl_multi_remove_handle(multi, handle)
                transfer.finish(result)
            }
            curl_multi_poll(multi, nil, 0, Self.idleWait, nil)
        }
    }

    private func obey(_ command: Command) {
        switch command {
        case .start(let transfer):
            if transfer.cancelledBeforeStart {
                transfer.abandon()
            } else if curl_multi_add_handle(multi, transfer.handle) == CURLM_OK {
                running[transfer.handle] = transfer
            } else {
                transfer.finish(CURLE_FAILED_INIT)
            }
        case .cancel(let transfer):
            if running.removeValue(forKey: transfer.handle) != nil {
                curl_multi_remove_handle(multi, transfer.handle)
                transfer.abandon()
            } else {
                // Not started yet (the task was cancelled as it asked), or already finished.
                transfer.cancelledBeforeStart = true
            }
        }
    }
}
