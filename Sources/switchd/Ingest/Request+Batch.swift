import Foundation
import Hummingbird
import ScanContract

extension Request {
    /// Collects the body (up to the context's limit) and decodes an uploaded batch: a batch
    /// written the plain way scanners write it is read in one pass over the body's bytes
    /// (``MeasurementBatch/readPlainJSON(_:)``); any other body goes to ``decodeJSON(_:context:)``'s
    /// decoder, which answers it exactly as it answers every request body.
    ///
    /// - Throws: what ``decodeJSON(_:context:)`` throws, for the same body.
    func decodeBatch(context: AppRequestContext) async throws -> MeasurementBatch {
        var request = self
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        if let batch = buffer.withUnsafeReadableBytes({ MeasurementBatch.readPlainJSON($0) }) {
            return batch
        }
        return try Self.decodeJSON(MeasurementBatch.self, from: Data(buffer.readableBytesView))
    }
}
