import Foundation
import Synchronization

/// How old or how far ahead a signed command may be, and how many nonces switchd remembers.
struct MQTTCommandWindow: Sendable {
    /// A command signed longer ago than this (seconds) is refused `expired`.
    var maxAge: Int64 = 60
    /// A command stamped further ahead of switchd's clock than this (seconds) is refused `future`.
    var maxAhead: Int64 = 10
    /// At most this many nonces are remembered (about 100 bytes each).
    var nonceCapacity = 10_000
}

/// The time window and the nonces of the commands switchd took within it, so that a command
/// captured off the broker cannot be sent again.
///
/// Bounded: a nonce is forgotten once its command's timestamp leaves the window (a replay would
/// be refused `expired` then). When ``MQTTCommandWindow/nonceCapacity`` nonces are remembered,
/// the one with the oldest timestamp is let go and the horizon rises to its timestamp: commands
/// stamped at or before the horizon are refused, so forgetting never lets a replay through.
/// ``startListening(at:)`` raises the horizon too: what another instance (or this one before a
/// restart) took is not in this memory.
final class MQTTCommandNonces: Sendable {
    let window: MQTTCommandWindow
    private let state = Mutex(State())

    private struct State {
        var horizon = Int64.min
        var nonces: Set<String> = []
        /// The remembered nonces by timestamp, oldest first.
        var byTime: [(timestamp: Int64, nonce: String)] = []
    }

    init(window: MQTTCommandWindow) {
        self.window = window
    }

    /// Refuses every command stamped up to `now` plus the allowed skew: one taken by the previous
    /// holder of the broker session could carry such a stamp.
    func startListening(at now: Date) {
        let horizon = Self.seconds(now) + window.maxAhead
        state.withLock { $0.horizon = max($0.horizon, horizon) }
    }

    /// Takes a command stamped `timestamp` with `nonce` at `now` (remembering the nonce), or says
    /// why not. Called only for commands whose MAC is right, so only holders of the secret fill
    /// the memory.
    func admit(timestamp: Int64, nonce: String, at now: Date) -> MQTTCommandRefusal? {
        let now = Self.seconds(now)
        return state.withLock { state in
            // Forget what left the window: a replay of it is refused as expired.
            let expired = state.byTime.prefix { $0.timestamp < now - window.maxAge }.count
            for entry in state.byTime.prefix(expired) { state.nonces.remove(entry.nonce) }
            state.byTime.removeFirst(expired)
            if timestamp < now - window.maxAge { return .expired(timestamp: timestamp, now: now, maxAge: window.maxAge) }
            if timestamp > now + window.maxAhead { return .future(timestamp: timestamp, now: now, maxAhead: window.maxAhead) }
            if timestamp <= state.horizon { return .beforeHorizon(timestamp: timestamp, horizon: state.horizon) }
            if state.nonces.contains(nonce) { return .replayed }
            if state.byTime.count >= window.nonceCapacity, let oldest = state.byTime.first {
                guard timestamp > oldest.timestamp else { return .beforeHorizon(timestamp: timestamp, horizon: oldest.timestamp) }
                state.horizon = oldest.timestamp
                state.nonces.remove(oldest.nonce)
                state.byTime.removeFirst()
            }
            let place = state.byTime.partitioningIndex { $0.timestamp > timestamp }
            state.byTime.insert((timestamp, nonce), at: place)
            state.nonces.insert(nonce)
            return nil
        }
    }

    /// How many nonces are remembered now.
    var count: Int { state.withLock { $0.nonces.count } }

    private static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}

private extension Array {
    /// The first index whose element satisfies `belongs`, for an array in which all that do
    /// come after all that do not (binary search).
    func partitioningIndex(where belongs: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
