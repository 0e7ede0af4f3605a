import Harness
import HummingbirdTesting

extension TestClientProtocol {
    /// `GET /metrics`, expecting 200 and Prometheus text.
    func scrape() async throws -> PrometheusSamples {
        let response = try await get("/metrics")
        guard response.status == .ok, response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true else {
            throw UnexpectedStatus(method: .get, uri: "/metrics", status: response.status, body: String(buffer: response.body))
        }
        return PrometheusSamples(String(buffer: response.body))
    }
}
