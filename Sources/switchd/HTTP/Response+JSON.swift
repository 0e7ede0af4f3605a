import Hummingbird
import ScanContract

extension Response {
    /// A JSON answer in the v1 conventions (``JSONCoding``).
    ///
    /// - Throws: when the value cannot be encoded (a non-finite number); the error middleware
    ///   answers 500.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONCoding.encoder().encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(data.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
