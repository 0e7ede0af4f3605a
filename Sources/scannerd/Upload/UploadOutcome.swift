import Foundation
import ScanContract

/// What switchd's answer to an upload means for the batch.
enum UploadOutcome: Equatable {
    /// Stored (201) or already stored (200, duplicate): the spooled copy may go.
    case acknowledged(BatchReceipt)
    /// Refused for good (400, 404, 409, 413, 422): sending it again would be refused again.
    /// `response` is switchd's answer, to be kept with the batch.
    case rejected(status: Int, response: Data)
    /// Worth sending again later (5xx, anything unexpected), with why. 401 and 403 are retried
    /// too: the batch waits in the spool until the operator fixes the token.
    case retry(String)

    static let acknowledgedStatuses: Set<Int> = [200, 201]
    static let rejectedStatuses: Set<Int> = [400, 404, 409, 413, 422]

    init(_ response: HTTPResponse) {
        if Self.acknowledgedStatuses.contains(response.status) {
            do {
                self = .acknowledged(try JSONCoding.decoder().decode(BatchReceipt.self, from: response.body))
            } catch {
                self = .retry("HTTP \(response.status) without a batch receipt: \(error)")
            }
        } else if Self.rejectedStatuses.contains(response.status) {
            self = .rejected(status: response.status, response: response.body)
        } else {
            self = .retry(SwitchdAPIError.status(response.status, SwitchdAPIError.describe(response.body)).description)
        }
    }
}
