import Foundation
import ScanContract
import Testing

/// ``WatchedTags/fitting(_:in:)``: the longest prefix of the watched list that keeps the switch
/// answer within ``ScanSwitch/answerLimit``, each identity once.
@Suite struct WatchedTagsFittingTests {
    static let base = ScanSwitch(scannerID: .default, changedAt: Date(timeIntervalSince1970: 1_800_000_000))

    static func identities(_ count: Int) -> [TagIdentity] {
        (0..<count).map { .address(MACAddress(rawValue: 0x02_00_00_00_00_00 | UInt64($0))) }
    }

    @Test func aListThatFitsIsSentWholeAndOnce() throws {
        let list = Self.identities(3)
        let fitted = try WatchedTags.fitting(list + [list[1]], in: Self.base)
        #expect(fitted.watchedTags == list && fitted.watchedLeftOut == nil)
    }

    /// The answer never exceeds the limit, and one identity more would have reached it.
    @Test func aLongListIsCutToTheLongestPrefixThatFits() throws {
        let list = Self.identities(2000)
        let fitted = try WatchedTags.fitting(list, in: Self.base)
        let kept = try #require(fitted.watchedTags)
        let size = try JSONCoding.encoder().encode(fitted).count
        #expect(size <= ScanSwitch.answerLimit)
        #expect(kept == Array(list.prefix(kept.count)) && fitted.watchedLeftOut == list.count - kept.count)
        var oneMore = fitted
        oneMore.watchedTags = Array(list.prefix(kept.count + 1))
        #expect(try JSONCoding.encoder().encode(oneMore).count > ScanSwitch.answerLimit - 1, "at most a byte of slack per answer")
    }
}
