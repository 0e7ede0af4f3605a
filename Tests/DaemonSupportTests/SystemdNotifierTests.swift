import DaemonSupport
import Harness
import Testing

@Suite struct SystemdNotifierTests {
    @Test(arguments: [false, true])
    func sendsOneDatagramOfLines(abstract: Bool) async throws {
        let receiver = try NotifySocketReceiver(abstract: abstract)
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        #expect(notifier.isEnabled)
        try notifier.notify(.ready, .status("listening on 127.0.0.1:8080"))
        try notifier.notify(.stopping)
        _ = try await receiver.waitForMessage { $0 == "STOPPING=1" }
        #expect(receiver.messages() == ["READY=1\nSTATUS=listening on 127.0.0.1:8080", "STOPPING=1"])
    }

    @Test func withoutNotifySocketNothingIsSent() throws {
        let notifier = try SystemdNotifier(environment: [:])
        #expect(!notifier.isEnabled)
        try notifier.notify(.ready)
    }

    @Test func statusStaysOneLine() {
        #expect(NotifyState.status("a\nb").line == "STATUS=a b")
    }

    @Test(arguments: ["relative/path", "@", ""])
    func unusableAddressesAreRefused(address: String) {
        #expect(throws: SystemdNotifyError.unusableSocketAddress(address)) {
            try SystemdNotifier(environment: ["NOTIFY_SOCKET": address])
        }
    }

    @Test func tooLongAPathIsRefused() {
        let address = "/" + String(repeating: "a", count: 200)
        #expect(throws: SystemdNotifyError.unusableSocketAddress(address)) {
            try SystemdNotifier(environment: ["NOTIFY_SOCKET": address])
        }
    }

    @Test func aSocketNobodyListensOnIsAnError() throws {
        let notifier = try SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent-floorscan/notify"])
        #expect(throws: SystemdNotifyError.self) { try notifier.notify(.ready) }
    }
}
