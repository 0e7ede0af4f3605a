import Foundation
import ScanContract
@testable import scannerd

/// The HTTP edge replaced by a script: each request is recorded and answered by `respond`,
/// which sees the request and how many came before it.
actor ScriptedHTTPClient: HTTPClient {
    typealias Responder = @Sendable (HTTPRequest, Int) async throws -> HTTPResponse

    private let respond: Responder
    private(set) var requests: [HTTPRequest] = []

    init(_ respond: @escaping Responder) {
        self.respond = respond
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let index = requests.count
        requests.append(request)
        return try await respond(request, index)
    }

    /// The batch IDs of the measurement uploads, in the order they were sent.
    func postedBatchIDs() throws -> [UUID] {
        try requests.filter { $0.method == .post }.map { try decodeBatch($0.body!).batchID }
    }
}

/// switchd's answer to a new batch: 201 with a receipt for all of it.
func storedReceipt(for request: HTTPRequest) throws -> HTTPResponse {
    let batch = try decodeBatch(request.body!)
    let receipt = BatchReceipt(batchID: batch.batchID, stored: batch.measurements.count, duplicate: false, discarded: false)
    return HTTPResponse(status: 201, body: try JSONCoding.encoder().encode(receipt))
}

func errorResponse(
    _ status: Int, code: String, message: String, field: String? = nil, batchID: UUID? = nil, headers: [String: String] = [:]
) throws -> HTTPResponse {
    HTTPResponse(
        status: status, body: try JSONCoding.encoder().encode(APIErrorBody(code: code, message: message, field: field, batchID: batchID)),
        headers: headers
    )
}
