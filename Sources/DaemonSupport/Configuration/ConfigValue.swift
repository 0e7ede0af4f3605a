/// One value of a configuration file, as TOML typed it.
public enum ConfigValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([ConfigValue])

    /// The value as it would be typed after its flag on the command line (`8080`, `1.4`, `true`);
    /// nil for an array, which is one command-line value per element.
    var argumentText: String? {
        switch self {
        case .string(let text): text
        case .integer(let number): String(number)
        case .float(let number): String(number)
        case .boolean(let truth): String(truth)
        case .array: nil
        }
    }
}
