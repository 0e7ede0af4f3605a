extension RadioMap {
    /// This map with every location's ``RadioMapLocation/expectedError`` estimated by
    /// ``LeaveOneLocationOut`` over its Wi-Fi survey, located the way scannerd locates (the
    /// standard ``WiFiKNNLocator``); the points of one walk survey (``RadioMapLocation/walkID``)
    /// are left out together. A location gets none when no sample of it could be located:
    /// no Wi-Fi survey there, fewer than two locations surveyed, or nothing heard in common with
    /// the rest of the survey. Beacons do not count: they are positioned by other methods.
    public func withExpectedErrors(
        quantile: Double = ExpectedError.standardQuantile, estimate: LeaveOneLocationOut<Emitter> = LeaveOneLocationOut()
    ) -> RadioMap {
        let walks = Dictionary(uniqueKeysWithValues: locations.compactMap { location in location.walkID.map { (location.locationID, $0) } })
        let outcomes = estimate.outcomes(of: FingerprintRecord.wifiSurvey(of: self), groups: walks) { WiFiKNNLocator(records: $0) }
        var map = self
        for index in map.locations.indices {
            let errors = outcomes[map.locations[index].locationID]?.errors ?? []
            map.locations[index].expectedError = ExpectedError(errors: errors, quantile: quantile)
        }
        return map
    }
}
