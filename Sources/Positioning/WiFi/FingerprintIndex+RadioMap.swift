extension FingerprintRecord where Key == Emitter {
    /// A radio map's Wi-Fi survey as records: one per survey scan of every location that heard an
    /// access point, with the location's floor and building (from `radioMap.floors`). Beacons are
    /// left out; they are positioned by other methods. A location whose floor is not among
    /// `radioMap.floors` is put in a building named "" so that it still counts rather than vanishing.
    public static func wifiSurvey(of radioMap: RadioMap) -> [FingerprintRecord<Emitter>] {
        let buildingOfFloor = Dictionary(
            radioMap.floors.map { ($0.floorID, $0.building) }, uniquingKeysWith: { first, _ in first })
        var records: [FingerprintRecord<Emitter>] = []
        for location in radioMap.locations {
            for scan in location.scans {
                let wifi = scan.filter { $0.key.kind == .wifi }
                guard !wifi.isEmpty else { continue }
                records.append(FingerprintRecord(
                    building: buildingOfFloor[location.floorID] ?? "",
                    floorID: location.floorID,
                    x: location.x,
                    y: location.y,
                    locationID: location.locationID,
                    readings: wifi
                ))
            }
        }
        return records
    }
}

extension FingerprintIndex where Key == Emitter {
    /// The index of a radio map's Wi-Fi survey (see `FingerprintRecord.wifiSurvey(of:)`).
    public init(radioMap: RadioMap, representation: PoweredRSSI = .standard, grouping: Grouping = .eachSample) {
        self.init(records: FingerprintRecord.wifiSurvey(of: radioMap), representation: representation, grouping: grouping)
    }
}

extension WiFiKNNLocator where Key == Emitter {
    /// The kNN cascade over a radio map's Wi-Fi survey, as scannerd runs it on the device.
    public init(radioMap: RadioMap, representation: PoweredRSSI = .standard, settings: Settings = .standard) {
        self.init(records: FingerprintRecord.wifiSurvey(of: radioMap), representation: representation, settings: settings)
    }
}
