/// Why a configuration file could not be used. Every case names the file and, where one is to blame,
/// the setting and its line, so the operator can go straight to it.
public enum ConfigFileError: Error, Equatable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not valid TOML.
    case syntax(path: String, line: Int, column: Int, reason: String)
    /// A key that names no long option of the command.
    case unknownSetting(path: String, key: String, line: Int?, suggestion: String?)
    /// A key whose value has the wrong shape for its option (a table, a date, a list for a single value,
    /// a number for an on/off flag).
    case wrongShape(path: String, key: String, line: Int?, expected: String)
    /// A value the command itself refused: ArgumentParser's conversion or the command's `validate()`.
    case invalidSetting(path: String, key: String, line: Int?, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the configuration file \(path): \(reason)"
        case .syntax(let path, let line, let column, let reason):
            "\(path) line \(line), column \(column) is not valid TOML: \(reason)"
        case .unknownSetting(let path, let key, let line, let suggestion):
            "\(Self.place(path, line)): unknown setting '\(key)'"
                + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
                + "; settings are the command's long options without their dashes, see --help"
        case .wrongShape(let path, let key, let line, let expected):
            "\(Self.place(path, line)): setting '\(key)' must be \(expected)"
        case .invalidSetting(let path, let key, let line, let reason):
            "\(Self.place(path, line)): setting '\(key)': \(reason)"
        }
    }

    private static func place(_ path: String, _ line: Int?) -> String {
        line.map { "\(path) line \($0)" } ?? path
    }
}
