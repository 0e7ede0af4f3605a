@testable import switchd

extension WebhookDestinationPolicy {
    /// What the test apps use: the receivers the tests start listen on loopback, so loopback and
    /// private addresses are allowed, and no DNS server is asked (`localhost` is 127.0.0.1, every
    /// other name resolves to nothing, as it would on a host without a network).
    static let testReceivers = WebhookDestinationPolicy(allowsPrivate: true) { name in
        name == "localhost" ? [.v4(0x7F00_0001)] : []
    }
}
