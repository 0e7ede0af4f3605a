import ArgumentParser

/// One dataset of `../shared/data/fingerprint-suite/` and the figures its `README.txt` states,
/// copied here by hand (the READMEs are prose, not a format to parse): the plain kNN reference
/// (k = 3, Euclidean, not heard = −105 dBm, floor by vote) and the best published result where the
/// README names one.
struct SuiteDataset: Hashable, Sendable {
    /// The folder name, e.g. "TUT3".
    var name: String
    /// The reference's mean 2-D error, metres.
    var referenceMean: Double
    /// The reference's floor hit rate, 0…1.
    var referenceFloorHitRate: Double
    /// The published best as the README gives it ("DELLoc-RT 8.19 m / 94.0 %"), or nil.
    var publishedBest: String?

    /// The eight datasets, in the order of the suite's own README.md table.
    static let all = [
        // TUT3/README.txt: "mean 2-D error 9.07 m … floor hit rate 90.26 %"; "DELLoc-RT … MEE 8.19 m, floor 94.02 % (unchecked)".
        SuiteDataset(name: "TUT3", referenceMean: 9.07, referenceFloorHitRate: 0.9026, publishedBest: "DELLoc-RT 8.19 m / 94.02 %"),
        // TUT4/README.txt: "mean 2-D error 6.02 m … floor hit rate 95.12 %"; "Published figures: None found."
        SuiteDataset(name: "TUT4", referenceMean: 6.02, referenceFloorHitRate: 0.9512),
        // TUT6/README.txt: "mean 2-D error 2.83 m … floor hit rate 99.96 %"; "None found."
        SuiteDataset(name: "TUT6", referenceMean: 2.83, referenceFloorHitRate: 0.9996),
        // LIB1/README.txt: "mean 2-D error 2.75 m … floor hit rate 99.94 %"; "None verified" (2.53 m and 0.84 m are context only).
        SuiteDataset(name: "LIB1", referenceMean: 2.75, referenceFloorHitRate: 0.9994),
        // WiFine/README.txt: "mean 2-D error 4.47 m … floor hit rate 95.18 %"; "None verified".
        SuiteDataset(name: "WiFine", referenceMean: 4.47, referenceFloorHitRate: 0.9518),
        // SODIndoorLoc/README.txt: "mean 2-D error 4.69 m … floor hit rate 100.00 %"; "Bi et al. 2022: MLP regression mean 2.3 m" (other AP variant).
        SuiteDataset(name: "SODIndoorLoc", referenceMean: 4.69, referenceFloorHitRate: 1, publishedBest: "MLP 2.3 m (other AP variant)"),
        // UJIB1/README.txt: "mean 2-D error 2.29 m … floor hit rate 100.00 %"; "None found".
        SuiteDataset(name: "UJIB1", referenceMean: 2.29, referenceFloorHitRate: 1),
        // BLE_calib2021/README.txt: "mean 2-D error 1.37 m … floor hit rate 100.00 %"; "None verified".
        SuiteDataset(name: "BLE_calib2021", referenceMean: 1.37, referenceFloorHitRate: 1),
    ]

    init(name: String, referenceMean: Double, referenceFloorHitRate: Double, publishedBest: String? = nil) {
        self.name = name
        self.referenceMean = referenceMean
        self.referenceFloorHitRate = referenceFloorHitRate
        self.publishedBest = publishedBest
    }

    /// - Throws: `ValidationError` naming the first of `names` that is not a dataset of the suite.
    static func checkNames(_ names: [String]) throws {
        let known = Set(all.map(\.name))
        for name in names where !known.contains(name) {
            throw ValidationError("unknown dataset \(name); the suite holds \(all.map(\.name).joined(separator: ", "))")
        }
    }

    /// `train.csv` or `train.csv.gz` (the suite gzips files over 1 MB) in `folder`, or nil when neither is there.
    static func file(_ part: String, in folder: String, exists: (String) -> Bool) -> String? {
        [".csv", ".csv.gz"].map { "\(folder)/\(part)\($0)" }.first(where: exists)
    }
}
