/// Advertisements heard together, as each role of a scanner takes them: the iBeacon readings a
/// scan session records and positions with, and every advertisement named by its tag identities
/// (iBeacon, Eddystone-UID, AltBeacon, address) for the listening role's windows.
struct BLEHeardGroup: Sendable {
    var readings: [RadioReading]
    var hearings: [TrackHearing]

    /// Nothing for either role.
    var isEmpty: Bool { readings.isEmpty && hearings.isEmpty }

    /// The group as a scan session takes it: the readings, and the hearings with telemetry.
    var forSession: BLEHeardGroup {
        BLEHeardGroup(readings: readings, hearings: hearings.filter { $0.telemetry != nil })
    }
}

extension BLEScanner {
    /// A source whose readings are all it hears (the simulated radio): each reading is also a
    /// hearing, named by its iBeacon and its address.
    func heardGroups() -> AsyncThrowingStream<BLEHeardGroup, any Error> {
        groups { BLEHeardGroup(readings: $0, hearings: $0.compactMap(TrackHearing.init)) }
    }

    /// A source that hears no telemetry (the simulated radio): its readings alone.
    func sessionGroups() -> AsyncThrowingStream<BLEHeardGroup, any Error> {
        groups { BLEHeardGroup(readings: $0, hearings: []) }
    }

    /// ``advertisements()`` made groups by `group`, pumped by a task of their own, cancelled
    /// when the returned stream is dropped.
    private func groups(_ group: @escaping @Sendable ([RadioReading]) -> BLEHeardGroup) -> AsyncThrowingStream<BLEHeardGroup, any Error> {
        let readings = advertisements()
        let (groups, continuation) = AsyncThrowingStream.makeStream(of: BLEHeardGroup.self)
        let pump = Task {
            do {
                for try await readings in readings {
                    continuation.yield(group(readings))
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
