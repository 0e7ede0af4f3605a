import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One HTTP exchange as a libcurl easy handle: the request's options set when it is made, the
/// answer collected by libcurl's callbacks on ``CurlTransferLoop``'s thread, and the caller's
/// continuation resumed once, by ``finish(_:)`` or ``abandon()``.
///
/// The answer is held to the request's `answerLimit`: a declared `Content-Length` over it aborts
/// the transfer from the header callback, before any of the body is read, and a body that grows
/// past it aborts it from the write callback at that point (libcurl then closes the connection).
final class CurlTransfer: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    private let url: URL
    private let limit: Int
    private var requestHeaders: UnsafeMutablePointer<curl_slist>?
    private let errorText: UnsafeMutablePointer<CChar>
    private var continuation: CheckedContinuation<HTTPResponse, any Error>?

    // Touched only on the loop's thread once the transfer is handed to it.
    private var status = 0
    private var headers: [String: String] = [:]
    private var body = Data()
    private var overLimit = false
    /// Cancelled before the loop took it: it finishes at once instead of starting.
    var cancelledBeforeStart = false

    /// The easy handle for `request`, trusting what `trust` says for `https://`.
    ///
    /// - Throws: ``HTTPTransportError`` when libcurl refuses a handle or an option (out of memory,
    ///   or a libcurl built without HTTP).
    init(_ request: HTTPRequest, trust: CurlTrust) throws {
        guard let handle = curl_easy_init() else {
            throw HTTPTransportError(code: .cannotLoadFromNetwork, reason: "libcurl could not make a transfer (out of memory)")
        }
        self.handle = handle
        url = request.url
        limit = request.answerLimit
        errorText = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(to: 0)
        try configure(for: request, trust: trust)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(requestHeaders)
        errorText.deallocate()
    }

    /// Where the answer goes; the loop resumes it.
    func deliverAnswer(to continuation: CheckedContinuation<HTTPResponse, any Error>) {
        self.continuation = continuation
    }

    /// Resumes the caller with the answer, or the error that `code` and the callbacks tell of.
    func finish(_ code: CURLcode) {
        if overLimit {
            resume(.failure(HTTPAnswerTooLargeError(url: url, limit: limit)))
        } else if code == CURLE_OK {
            resume(.success(HTTPResponse(status: status, body: body, headers: headers)))
        } else {
            resume(.failure(HTTPTransportError(code, detail: String(cString: errorText), host: url.host ?? "the server")))
        }
    }

    /// Resumes the caller with `CancellationError`; libcurl's part of the transfer is over.
    func abandon() {
        resume(.failure(CancellationError()))
    }

    private func resume(_ result: Result<HTTPResponse, any Error>) {
        continuation?.resume(with: result)
        continuation = nil
    }

    private func configure(for request: HTTPRequest, trust: CurlTrust) throws {
        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(floorscan_curl_set_pointer(handle, CURLOPT_URL, request.url.absoluteString))
        try check(floorscan_curl_set_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        // Threads and signals do not mix: no SIGALRM around name lookups, no SIGPIPE on a reset.
        try check(floorscan_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        try check(floorscan_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout)))
        try check(floorscan_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorText))
        try check(floorscan_curl_set_data_callback(handle, CURLOPT_HEADERFUNCTION, receiveHeaderLine))
        try check(floorscan_curl_set_pointer(handle, CURLOPT_HEADERDATA, context))
        try check(floorscan_curl_set_data_callback(handle, CURLOPT_WRITEFUNCTION, receiveBody))
        try check(floorscan_curl_set_pointer(handle, CURLOPT_WRITEDATA, context))
        switch trust {
        case .system:
            break
        case .caFile(let caFile):
            try check(floorscan_curl_set_pointer(handle, CURLOPT_CAINFO, caFile))
            // Debian's libcurl also reads /etc/ssl/certs unless told not to: the file alone is trusted.
            try check(floorscan_curl_set_pointer(handle, CURLOPT_CAPATH, nil))
        case .pin(let pin):
            // The pinned key is the trust: a self-signed switchd has no chain or name to check,
            // and libcurl refuses any other key before a byte of the request is sent.
            try check(floorscan_curl_set_pointer(handle, CURLOPT_PINNEDPUBLICKEY, pin))
            try check(floorscan_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 0))
            try check(floorscan_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 0))
        }
        switch request.method {
        case .get:
            break
        case .post, .put:
            let body = request.body ?? Data()
            try check(floorscan_curl_set_size(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            try body.withUnsafeBytes { bytes in
                // libcurl copies the body; an empty one still needs a pointer.
                try check(floorscan_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(context)))
            }
            if request.method == .put {
                try check(floorscan_curl_set_pointer(handle, CURLOPT_CUSTOMREQUEST, "PUT"))
            }
        }
        var fields = ["Accept": "application/json"]
        if request.body != nil {
            fields["Content-Type"] = "application/json"
        }
        fields.merge(request.headers) { _, given in given }
        // An empty Expect: no 100-continue round trip before a larger body.
        for line in fields.map({ "\($0.key): \($0.value)" }).sorted() + ["Expect:"] {
            guard let appended = curl_slist_append(requestHeaders, line) else {
                throw HTTPTransportError(code: .cannotLoadFromNetwork, reason: "libcurl could not hold the request's headers (out of memory)")
            }
            requestHeaders = appended
        }
        try check(floorscan_curl_set_pointer(handle, CURLOPT_HTTPHEADER, requestHeaders))
    }

    private func check(_ code: CURLcode) throws {
        guard code == CURLE_OK else {
            throw HTTPTransportError(code, detail: "", host: url.host ?? "the server")
        }
    }

    /// A `Duration` as libcurl's milliseconds, at least 1 (0 would mean no timeout at all).
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow, seconds >= 0 else { return overflow ? Int.max : 1 }
        return max(1, Int(clamping: milliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000).partialValue))
    }

    /// One line of the answer's head. Returns false to abort the transfer: a declared length over the limit.
    fileprivate func headerLine(_ line: String) -> Bool {
        if line.hasPrefix("HTTP/") {
            // A new response's status line (after a 100 Continue, say): its headers start afresh.
            headers = [:]
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return true
        }
        guard let colon = line.firstIndex(of: ":") else { return true }
        let name = line[..<colon].lowercased()
        let value = String(line[line.index(after: colon)...].trimmingPrefix(while: \.isWhitespace).prefix { $0 != "\r" && $0 != "\n" })
        headers[name] = value
        // 1xx, 204 and 304 carry no body, whatever length they name.
        let hasBody = status >= 200 && status != 204 && status != 304
        if name == "content-length", hasBody, let length = Int(value), length > limit {
            overLimit = true
            return false
        }
        return true
    }

    /// A piece of the answer's body. Returns false to abort the transfer: the body is over the limit.
    fileprivate func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= limit else {
            overLimit = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }
}

/// CURLOPT_HEADERFUNCTION: one header line per call; a count other than the one given aborts.
private func receiveHeaderLine(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: size * count), as: UTF8.self)
    return transfer.headerLine(line) ? size * count : 0
}

/// CURLOPT_WRITEFUNCTION: a piece of the body; a count other than the one given aborts.
private func receiveBody(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.bodyBytes(UnsafeRawBufferPointer(start: buffer, count: size * count)) ? size * count : 0
}

extension HTTPTransportError {
    /// libcurl's failure `code`, with the text of its error buffer (`detail`) when it wrote one.
    init(_ code: CURLcode, detail: String, host: String) {
        let summary = String(cString: curl_easy_strerror(code))
        let reason = "no answer from \(host): \(detail.isEmpty ? summary : detail) (curl error \(code.rawValue))"
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            self.init(code: .timedOut, reason: reason)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            self.init(code: .networkConnectionLost, reason: reason)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            self.init(code: .serverNotTrusted, reason: reason)
        default:
            self.init(code: .cannotLoadFromNetwork, reason: reason)
        }
    }
}
