/// A daemon's TOML configuration file: top-level `key = value` lines, one per long option.
///
/// Read by ``TOMLReader``. Tables, dotted keys, dates and times are refused here, since no option takes them; whether each key names an
/// option and whether each value suits it is checked later, against the command (`ConfigArguments`).
public struct ConfigFile: Sendable, Equatable {
    public let path: String
    /// In the order they appear in the file.
    public let settings: [ConfigSetting]

    /// Reads and parses the file at `path`.
    ///
    /// - Throws: `ConfigFileError.unreadable` when it cannot be read, `.syntax` with the line and column
    ///   when it is not TOML, `.wrongShape` for a table, dotted key, date or time.
    public static func load(path: String) throws(ConfigFileError) -> ConfigFile {
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        return try ConfigFile(path: path, text: text)
    }

    /// Parses `text` as the contents of the file at `path` (which is only used in errors).
    ///
    /// - Throws: `.syntax` with the line and column where the text stops being TOML or a key is set
    ///   twice; `.wrongShape` naming the key and its line for a table, dotted key, date or time.
    public init(path: String, text: String) throws(ConfigFileError) {
        var reader = TOMLReader(text: text)
        do {
            settings = try reader.settings()
        } catch {
            switch error {
            case .syntax(let line, let column, let reason):
                throw .syntax(path: path, line: line, column: column, reason: reason)
            case .unsupported(let key, let line, let what):
                throw .wrongShape(path: path, key: key, line: line, expected: "a string, number, true/false or a list of those, not \(what)")
            }
        }
        self.path = path
    }
}
