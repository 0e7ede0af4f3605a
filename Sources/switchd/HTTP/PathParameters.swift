import Hummingbird
import ScanContract

extension AppRequestContext {
    /// The numeric ID in the path. Text that is not an ID names nothing: 404, like an unknown ID.
    func pathID(_ resource: String, parameter: String = "id") throws -> Int64 {
        let text = parameters.get(parameter) ?? ""
        guard let id = Int64(text) else {
            throw APIError.notFound("no \(resource) \(APIError.echo(text))")
        }
        return id
    }

    /// The scanner ID in the path; an invalid one names no scanner (404).
    func pathScannerID(parameter: String = "id") throws -> ScannerID {
        let text = parameters.get(parameter) ?? ""
        do {
            return try ScannerID(text)
        } catch {
            throw APIError.notFound("no scanner \(APIError.echo(text))")
        }
    }
}
