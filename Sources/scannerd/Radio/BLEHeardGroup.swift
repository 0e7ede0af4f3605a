/// Advertisements heard together, as each role of a scanner takes them: the iBeacon readings a
/// scan session records and positions with, and every advertisement named by its tag identities
/// (iBeacon, Eddystone-UID, AltBeacon, address) for the listening role's windows.
struct BLEHeardGroup: Sendable {
    var readings: [RadioReading]
    var hearings: [TrackHearing]

    /// Nothing for either role.
    var isEmpty: Bool { readings.isEmpty && hearings.isEmpty }
}

extension BLEScanner {
    /// A source whose readings are all it hears (the simulated radio): each reading is also a
    /// hearing, named by its iBeacon and its address. The readings are pumped by a task of their
    /// own, cancelled when the returned stream is dropped.
    func heardGroups() -> AsyncThrowingStream<BLEHeardGroup, any Error> {
        let readings = advertisements()
        let (groups, continuation) = AsyncThrowingStream.makeStream(of: BLEHeardGroup.self)
        let pump = Task {
            do {
                for try await group in readings {
                    continuation.yield(BLEHeardGroup(readings: group, hearings: group.compactMap(TrackHearing.init)))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in pump.cancel() }
        return groups
    }
}
