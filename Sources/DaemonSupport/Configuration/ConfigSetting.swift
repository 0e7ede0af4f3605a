/// One `key = value` line of a configuration file.
public struct ConfigSetting: Sendable, Equatable {
    /// The long option it sets, without the leading dashes (`port`, `state-dir`).
    public let key: String
    public let value: ConfigValue
    /// 1-based line of the key in the file.
    public let line: Int

    public init(key: String, value: ConfigValue, line: Int) {
        self.key = key
        self.value = value
        self.line = line
    }
}
