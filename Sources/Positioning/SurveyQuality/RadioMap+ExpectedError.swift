extension RadioMap {
    /// This map with every location's ``RadioMapLocation/expectedError`` estimated by
    /// ``LeaveOneLocationOut`` over its Wi-Fi survey, located the way scannerd locates: a
    /// ``WiFiKNNLocator`` in the representation and with the settings the survey chooses for itself
    /// (``WiFiKNNLocator/SiteChoice`` on the whole survey, as ``Locator`` does), or with `settings`
    /// (in `representation`) when given. The points of one
    /// walk survey (``RadioMapLocation/walkID``) are left out together. A location gets none when
    /// no sample of it could be located: no Wi-Fi survey there, fewer than two locations surveyed,
    /// or nothing heard in common with the rest of the survey. Beacons do not count: they are
    /// positioned by other methods.
    ///
    /// The choice is made once, on the whole survey, so the left-out location took part in it:
    /// a choice between a few pre-registered candidates, not a fit to that location.
    public func withExpectedErrors(
        quantile: Double = ExpectedError.standardQuantile, estimate: LeaveOneLocationOut<Emitter> = LeaveOneLocationOut(),
        settings given: WiFiKNNLocator<Emitter>.Settings? = nil, representation givenRepresentation: PoweredRSSI = .standard
    ) -> RadioMap {
        let walks = Dictionary(uniqueKeysWithValues: locations.compactMap { location in location.walkID.map { (location.locationID, $0) } })
        let survey = FingerprintRecord.wifiSurvey(of: self)
        let choice = given == nil ? WiFiKNNLocator<Emitter>.SiteChoice(records: survey) : nil
        let settings = given ?? choice?.chosen ?? .standard
        let representation = choice?.chosenRepresentation ?? givenRepresentation
        let outcomes = estimate.outcomes(of: survey, groups: walks) {
            WiFiKNNLocator(records: $0, representation: representation, settings: settings)
        }
        var map = self
        for index in map.locations.indices {
            let errors = outcomes[map.locations[index].locationID]?.errors ?? []
            map.locations[index].expectedError = ExpectedError(errors: errors, quantile: quantile)
        }
        return map
    }
}
