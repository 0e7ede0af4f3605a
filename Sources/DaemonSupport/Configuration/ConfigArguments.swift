#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A configuration file said again as command-line words (`port = 8080` → `--port=8080`,
/// `x = true` → `--x`, `x = false` → `--no-x`), to be parsed by ArgumentParser with the
/// real command line after them, so every conversion and `validate()` check applies to both.
public struct ConfigArguments: Sendable {
    /// A setting that became words, with the option it sets.
    struct Applied: Sendable {
        let setting: ConfigSetting
        let option: CommandOptions.Option
        /// What the setting became on the command line.
        let words: [String]
    }

    public let path: String
    /// The words for every setting the command line does not give itself, in file order.
    public let words: [String]
    let applied: [Applied]
    /// Where ``words`` go in the program's arguments (after a subcommand's name, if any).
    var start = 0

    /// Checks every setting against `options` and turns it into words.
    ///
    /// - Parameter commandLine: the words given to the command itself; a setting they also give
    ///   (under any of its names, or as its `no-` twin) is left out, so the command line wins.
    /// - Throws: `ConfigFileError.unknownSetting` for a key that is no option of the command,
    ///   `.wrongShape` for a list given to a single-valued option or a non-boolean given to a flag,
    ///   `.invalidSetting` for `config` itself.
    public init(file: ConfigFile, options: CommandOptions, commandLine: [String]) throws(ConfigFileError) {
        let given = Self.keysGiven(on: commandLine, options: options)
        var words: [String] = []
        var applied: [Applied] = []
        for setting in file.settings {
            if CommandOptions.reservedKeys.contains(setting.key) {
                throw .invalidSetting(path: file.path, key: setting.key, line: setting.line, reason: "cannot be set in a configuration file")
            }
            guard let option = options.option(forKey: setting.key) else {
                throw .unknownSetting(
                    path: file.path, key: setting.key, line: setting.line,
                    suggestion: Self.nearest(to: setting.key, among: options.options.map(\.key))
                )
            }
            let twin = options.twin(of: option)
            guard !given.contains(option.key), !given.contains(twin?.key ?? option.key) else { continue }
            let settingWords = try Self.words(for: setting, option: option, twin: twin, path: file.path)
            words += settingWords
            applied.append(Applied(setting: setting, option: option, words: settingWords))
        }
        self.path = file.path
        self.words = words
        self.applied = applied
    }

    /// The file's setting to blame for the error that parsing `arguments` (``words`` put in at
    /// ``start``) gives, as an error that says where it is.
    ///
    /// Found by parsing again without each setting in turn, never by reading the message: the
    /// first setting without which the arguments parse, else the first without which the error
    /// is a different one (with two bad settings, the command reports the earlier one).
    ///
    /// - Parameter failure: the message of the error parsing some arguments gives; nil when they parse.
    /// - Returns: nil when `arguments` parse, or when no setting of the file changes the error (a
    ///   mistake on the command line stays the command line's).
    public func blame(_ arguments: [String], failure: ([String]) -> String?) -> ConfigFileError? {
        guard let message = failure(arguments) else { return nil }
        let withouts = applied.indices.map { skipped in
            var without = arguments
            let others = applied.indices.filter { $0 != skipped }.flatMap { applied[$0].words }
            without.replaceSubrange(start..<(start + words.count), with: others)
            return (applied[skipped].setting, failure(without))
        }
        guard let culprit = withouts.first(where: { $0.1 == nil }) ?? withouts.first(where: { $0.1 != message }) else { return nil }
        return .invalidSetting(path: path, key: culprit.0.key, line: culprit.0.line, reason: message)
    }

    private static func words(
        for setting: ConfigSetting, option: CommandOptions.Option, twin: CommandOptions.Option?, path: String
    ) throws(ConfigFileError) -> [String] {
        let flag = "--" + option.key
        switch (option.kind, setting.value) {
        case (.flag, .boolean(true)):
            return [flag]
        case (.flag, .boolean(false)):
            // Off: the twin says it (`--no-x`); a flag without one is off unless given.
            return twin.map { ["--" + $0.key] } ?? []
        case (.flag, .integer(let count)) where option.isRepeating && count >= 0:
            return Array(repeating: flag, count: count)
        case (.flag, _):
            throw .wrongShape(path: path, key: setting.key, line: setting.line, expected: "true or false")
        case (.option, .array(let elements)):
            guard option.isRepeating else {
                throw .wrongShape(path: path, key: setting.key, line: setting.line, expected: "a single value, not a list")
            }
            return try elements.map { element throws(ConfigFileError) in
                guard let text = element.argumentText else {
                    throw .wrongShape(path: path, key: setting.key, line: setting.line, expected: "a list of strings, numbers or true/false")
                }
                return "\(flag)=\(text)"
            }
        case (.option, let value):
            // `--key=value` keeps a value starting with a dash (`-`, `-3`) from being read as an option.
            return value.argumentText.map { ["\(flag)=\($0)"] } ?? []
        }
    }

    /// The keys of the options named on `commandLine`, up to a `--` that ends the options.
    private static func keysGiven(on commandLine: [String], options: CommandOptions) -> Set<String> {
        var keys: Set<String> = []
        for word in commandLine {
            if word == "--" { break }
            guard word.hasPrefix("-"), let option = options.option(named: word) else { continue }
            keys.insert(option.key)
        }
        return keys
    }

    /// The key closest to a misspelt one, if one is within two edits.
    private static func nearest(to key: String, among keys: [String]) -> String? {
        keys.map { ($0, editDistance(key, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }
}

/// Levenshtein distance between two strings, in characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
        var current = [i + 1]
        for (j, y) in b.enumerated() {
            current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
        }
        previous = current
    }
    return previous[b.count]
}
