#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ScanContract

/// What an answer to the upload of one batch means for that batch.
enum UploadOutcome: Equatable {
    /// Stored (201) or already stored (200, duplicate), by a receipt naming this very batch: the
    /// spooled copy may go.
    case acknowledged(BatchReceipt)
    /// switchd refused this batch's content for good: a 4xx whose error body names the batch's ID
    /// (only switchd's ingest writes one). Sending it again would be refused again. `response` is
    /// switchd's answer, to be kept with the batch.
    case rejected(status: Int, response: Data)
    /// Worth sending again later, with why: every other answer. A 404, 409 or 413 from a proxy, a
    /// login page, a 5xx, a 401 or 403 (the batch waits in the spool until the operator fixes the
    /// token), a 2xx without a receipt or with a receipt for another batch.
    case retry(String)
    /// switchd (or a proxy) is overloaded and says when to come back: a 429 or 503 with
    /// `Retry-After` in seconds (at most ``maximumRetryAfter``). Worth sending again, not sooner.
    case busy(retryAfter: Duration, reason: String)

    static let acknowledgedStatuses: Set<Int> = [200, 201]
    static let busyStatuses: Set<Int> = [429, 503]
    /// A longer `Retry-After` is shortened to this, so a misconfigured proxy cannot park uploads
    /// for hours.
    static let maximumRetryAfter = Duration.seconds(300)

    init(_ response: HTTPResponse, for batchID: UUID) {
        if Self.acknowledgedStatuses.contains(response.status) {
            let receipt: BatchReceipt
            do {
                receipt = try JSONCoding.decoder().decode(BatchReceipt.self, from: response.body)
            } catch {
                self = .retry("HTTP \(response.status) without a batch receipt: \(error)")
                return
            }
            guard receipt.batchID == batchID else {
                self = .retry("HTTP \(response.status) with a receipt for batch \(receipt.batchID), not for this batch")
                return
            }
            self = .acknowledged(receipt)
        } else if (400..<500).contains(response.status), Self.refusal(in: response.body)?.batchID == batchID {
            self = .rejected(status: response.status, response: response.body)
        } else if Self.busyStatuses.contains(response.status), let wait = Self.retryAfter(in: response) {
            self = .busy(retryAfter: wait, reason: SwitchdAPIError.status(response.status, SwitchdAPIError.describe(response.body)).description)
        } else {
            self = .retry(SwitchdAPIError.status(response.status, SwitchdAPIError.describe(response.body)).description)
        }
    }

    /// `Retry-After` as delay-seconds (RFC 9110 §10.2.3), capped; nil when absent or an HTTP date
    /// (the uploader's own backoff applies then).
    private static func retryAfter(in response: HTTPResponse) -> Duration? {
        let words = response.headers["retry-after"].map { $0.split { $0 == " " || $0 == "\t" } } ?? []
        guard words.count == 1, let seconds = Int(words[0]), seconds >= 0 else {
            return nil
        }
        return min(.seconds(seconds), maximumRetryAfter)
    }

    /// switchd's error detail, when the body is one.
    private static func refusal(in body: Data) -> APIErrorBody.Detail? {
        do {
            return try JSONCoding.decoder().decode(APIErrorBody.self, from: body).error
        } catch {
            return nil
        }
    }
}
