import Foundation
import Harness
import ScanContract
import Testing
@testable import switchd

/// switchd reaches a broker that speaks MQTT over TLS and admits one login only
/// (`--mqtt-broker mqtts://…`, `--mqtt-ca-file`, `--mqtt-username`, `--mqtt-password-file`):
/// with the broker's certificate as its CA file and the right login it connects and publishes;
/// with the wrong password, or a CA file that does not vouch for the broker, it stays
/// disconnected and says why, and its HTTP API goes on answering.
@Suite("MQTT: TLS and login", .serialized, .timeLimit(.minutes(2)))
struct MQTTSecureBrokerTests {
    static let login = MosquittoBroker.Login(username: "floorscan", password: "s3cret-for-tests")

    /// A broker over TLS with `login`, and switchd's settings for it (CA file and login set).
    static func secureBroker(in folder: TemporaryFolder) async throws -> (MosquittoBroker, SelfSignedCertificate) {
        let certificate = try await SelfSignedCertificate.make("broker", in: folder)
        return (try await MosquittoBroker(tls: certificate, login: login), certificate)
    }

    static func configure(_ settings: inout MQTTSettings, broker: MQTTBroker, caFile: String, password: String) {
        settings.broker = broker
        settings.caFile = caFile
        settings.username = login.username
        settings.password = password
    }

    @Test func withTheBrokersCertificateAndTheRightLoginSwitchdPublishes() async throws {
        let folder = try TemporaryFolder("mqtt-tls")
        defer { folder.remove() }
        let (broker, certificate) = try await Self.secureBroker(in: folder)
        let url = try MQTTBroker(url: "mqtts://127.0.0.1:\(broker.port)")
        try await withMQTTSwitchd(broker: broker, configure: {
            Self.configure(&$0, broker: url, caFile: certificate.certificatePath, password: Self.login.password)
        }) { switchd in
            await switchd.status.wait { $0.connected }
            let place = try await switchd.scannerInRoom("pi-lab")
            try await switchd.postPosition("pi-lab", in: place, x: 4)
            await switchd.status.wait { ($0.published["position"] ?? 0) >= 1 }
            let report = await switchd.status.report()
            #expect(report.broker == "mqtts://127.0.0.1:\(broker.port)" && report.lastError == nil)
        }
        await broker.remove()
    }

    @Test func aWrongPasswordIsRefusedAndSaidSo() async throws {
        let folder = try TemporaryFolder("mqtt-tls-password")
        defer { folder.remove() }
        let (broker, certificate) = try await Self.secureBroker(in: folder)
        let url = try MQTTBroker(url: "mqtts://127.0.0.1:\(broker.port)")
        try await withMQTTSwitchd(broker: broker, configure: {
            Self.configure(&$0, broker: url, caFile: certificate.certificatePath, password: "not-the-password")
        }) { switchd in
            await switchd.status.wait { $0.lastError != nil }
            let report = await switchd.status.report()
            #expect(!report.connected && report.connections == 0, "\(report)")
            #expect(report.lastError?.contains("not authorized") == true, "\(report)")
            // The API does not wait on the broker.
            _ = try await switchd.scannerInRoom("pi-lab")
        }
        await broker.remove()
    }

    @Test func aBrokerTheCAFileDoesNotVouchForIsNotTrusted() async throws {
        let folder = try TemporaryFolder("mqtt-tls-ca")
        defer { folder.remove() }
        let (broker, _) = try await Self.secureBroker(in: folder)
        let stranger = try await SelfSignedCertificate.make("stranger", in: folder)
        let url = try MQTTBroker(url: "mqtts://127.0.0.1:\(broker.port)")
        try await withMQTTSwitchd(broker: broker, configure: {
            Self.configure(&$0, broker: url, caFile: stranger.certificatePath, password: Self.login.password)
        }) { switchd in
            await switchd.status.wait { $0.lastError != nil }
            let report = await switchd.status.report()
            #expect(!report.connected && report.connections == 0, "\(report)")
            #expect(report.lastError?.contains("CERTIFICATE_VERIFY_FAILED") == true, "\(report)")
        }
        await broker.remove()
    }
}
