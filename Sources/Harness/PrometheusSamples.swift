/// The samples of a Prometheus text exposition, keyed by series as written
/// (`name{label="value",…}`); comment lines are skipped.
public struct PrometheusSamples: Sendable {
    public private(set) var values: [String: Double] = [:]

    public init(_ text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
    }

    /// The value of a series, 0 when it has not been exported (as Prometheus reads an absent counter).
    public subscript(_ series: String) -> Double { values[series] ?? 0 }
}
