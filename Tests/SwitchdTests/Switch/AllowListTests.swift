import Foundation
import Hummingbird
import HummingbirdTesting
import ScanContract
import Testing
@testable import switchd
@testable import SwitchdStore

/// The scanner allow-list ("only our access points") travels with the switch: setting it is a
/// new revision, so a waiting scanner hears of it at once; it stays until changed or cleared.
@Suite struct AllowListTests {
    static let ours = BSSID(rawValue: 0x02_00_00_00_01_00)

    @Test func theAllowListIsPushedWithTheSwitchAndKeptAcrossChanges() async throws {
        try await makeApp(try .inMemory()).test(.router) { client in
            let before = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
            let list = ScanAllowList(bssids: [Self.ours], ssids: ["floorscan-lab"])
            let set = try await client.patchSwitch(SwitchPatch(allowList: .set(list)))
            #expect(set.allowList == list && set.revision == before.revision + 1, "a new revision: the long-poll answers")
            #expect(try await client.patchSwitch(SwitchPatch(allowList: .set(list))) == set, "the same list changes nothing")

            let on = try await client.patchSwitch(SwitchPatch(scanning: true, mode: .locate))
            #expect(on.allowList == list, "left out, the list stays")
            let stored = try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self)
            #expect(stored == on)

            let cleared = try await client.patchSwitch(SwitchPatch(allowList: .set(nil)))
            #expect(cleared.allowList == nil && cleared.revision == on.revision + 1)

            for (body, field) in [
                (#"{"allowList": {}}"#, "allowList"),
                (#"{"allowList": {"ssids": [""]}}"#, "allowList.ssids[0]"),
                (#"{"allowList": {"bssids": ["nonsense"]}}"#, nil),
            ] {
                let response = try await client.send(.patch, "/v1/scanners/default/switch", text: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                if let field { #expect(try errorBody(response).field == field, "\(body)") }
            }
            #expect(try await client.expect(.ok, get: "/v1/scanners/default/switch", as: ScanSwitch.self) == cleared)
        }
    }

    @Test func onlyListedAccessPointsPassAndBeaconsAlways() {
        let list = ScanAllowList(bssids: [Self.ours], ssids: ["guest"])
        #expect(list.allows(.wifi(WiFiObservation(bssid: Self.ours, ssid: "", frequencyMHz: 2412))))
        #expect(list.allows(.wifi(WiFiObservation(bssid: BSSID(rawValue: 9), ssid: "guest", frequencyMHz: 2412))))
        #expect(!list.allows(.wifi(WiFiObservation(bssid: BSSID(rawValue: 9), ssid: "phone hotspot", frequencyMHz: 2412))))
        #expect(list.allows(Readings.ble().observation))
    }
}
