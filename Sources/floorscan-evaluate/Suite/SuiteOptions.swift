import ArgumentParser
import Harness

/// The options `suite` and `select` share: where the fingerprint suite is and which of its
/// datasets to use.
struct SuiteOptions: ParsableArguments {
    @Option(help: "The fingerprint-suite folder (default: fingerprint-suite in $FLOORSCAN_DATA or ../shared/data).")
    var data: String = PublicData.path("fingerprint-suite")

    @Option(help: "Only these datasets (folder names, e.g. TUT3); repeat for several. Default: all eight.")
    var only: [String] = []

    /// - Throws: `ValidationError` naming a dataset the suite does not have.
    func validate() throws {
        try SuiteDataset.checkNames(only)
    }

    /// The chosen datasets, in the suite's order.
    var chosen: [SuiteDataset] {
        SuiteDataset.all.filter { only.isEmpty || only.contains($0.name) }
    }

    /// The folder of `dataset`.
    func folder(of dataset: SuiteDataset) -> String {
        "\(data)/\(dataset.name)"
    }
}
