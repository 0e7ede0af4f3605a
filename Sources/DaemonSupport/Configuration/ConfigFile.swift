#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TOMLKit

/// A daemon's TOML configuration file: top-level `key = value` lines, one per long option.
///
/// Tables, dates and times are refused here, since no option takes them; whether each key names an
/// option and whether each value suits it is checked later, against the command (`ConfigArguments`).
public struct ConfigFile: Sendable, Equatable {
    public let path: String
    /// In the order they appear in the file.
    public let settings: [ConfigSetting]

    /// Reads and parses the file at `path`.
    ///
    /// - Throws: `ConfigFileError.unreadable` when it cannot be read, `.syntax` with the line and column
    ///   when it is not TOML, `.wrongShape` for a table, date or time.
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
    public init(path: String, text: String) throws(ConfigFileError) {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntax(path: path, line: error.source.begin.line, column: error.source.begin.column, reason: error.description)
        } catch {
            throw .syntax(path: path, line: 1, column: 1, reason: "\(error)")
        }
        let lines = KeyLines(text: text)
        var settings: [ConfigSetting] = []
        for (key, node) in table {
            let line = lines.line(of: key)
            guard let value = Self.value(node) else {
                throw .wrongShape(path: path, key: key, line: line, expected: "a string, number, true/false or a list of those, not a \(node.type)")
            }
            settings.append(ConfigSetting(key: key, value: value, line: line))
        }
        self.path = path
        self.settings = settings.sorted { ($0.line ?? .max, $0.key) < ($1.line ?? .max, $1.key) }
    }

    /// nil for the TOML types no option takes: tables, dates and times.
    private static func value(_ node: any TOMLValueConvertible) -> ConfigValue? {
        switch node.type {
        case .string: node.string.map(ConfigValue.string)
        case .int: node.int.map(ConfigValue.integer)
        case .double: node.double.map(ConfigValue.float)
        case .bool: node.bool.map(ConfigValue.boolean)
        case .array:
            node.array.flatMap { array in
                let elements = array.map { value($0) }
                return elements.contains(nil) ? nil : .array(elements.compactMap { $0 })
            }
        default: nil
        }
    }
}
