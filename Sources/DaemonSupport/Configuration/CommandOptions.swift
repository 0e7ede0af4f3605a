import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The long options and flags of one command, as ArgumentParser describes them in its JSON help
/// (the `--experimental-dump-help` request, serialization version 0): the list a configuration
/// file is checked against, so that no option has to be declared twice.
///
/// The JSON is asked for through public API only: parsing the request makes ArgumentParser throw,
/// and `fullMessage(for:)` renders that error as the JSON, exactly as a shell asking the binary
/// would see it.
public struct CommandOptions: Sendable {
    /// One named argument of the command.
    public struct Option: Sendable, Equatable {
        public enum Kind: String, Sendable, Decodable {
            case option, flag
        }

        /// The preferred long name, without dashes: the key that sets it in a file.
        public let key: String
        public let kind: Kind
        /// Every name it answers to on the command line, dashes included (`--port`, `-p`).
        public let spellings: [String]
        /// An option given once per value (`[String]`) or a flag counted.
        public let isRepeating: Bool
        /// Its default as `--help` shows it; nil when it has none or ArgumentParser cannot show it.
        public let defaultValue: String?
        public let abstract: String
    }

    /// Every settable option and flag in declaration order; `--help`, `--version` and `--config` left out.
    public let options: [Option]

    /// Reads the options of `command` from ArgumentParser's JSON help.
    ///
    /// Traps only if ArgumentParser stops answering the request with its JSON, a programming error
    /// that the first test loading a configuration file catches.
    public init(_ command: any ParsableArguments.Type) {
        let info = Self.helpJSON(of: command) { _ = try command.parse($0) }
        options = (info.command.arguments ?? []).compactMap(Option.init)
    }

    /// ArgumentParser's JSON help of `command`, got by handing `parse` the request.
    ///
    /// Traps when ArgumentParser parses the request instead of answering it, or its JSON cannot be
    /// decoded: programming errors that the configuration tests catch.
    static func helpJSON(of command: any ParsableArguments.Type, parse: ([String]) throws -> Void) -> ToolInfo {
        let json: String
        do {
            try parse([dumpRequest])
            preconditionFailure("ArgumentParser parsed \(dumpRequest) for \(command) instead of answering it")
        } catch {
            json = command.fullMessage(for: error)
        }
        do {
            return try JSONDecoder().decode(ToolInfo.self, from: Data(json.utf8))
        } catch {
            preconditionFailure("ArgumentParser's JSON help of \(command) could not be decoded: \(error)")
        }
    }

    /// The documented request for a command's JSON help, which ArgumentParser answers before parsing anything else.
    static let dumpRequest = "--experimental-dump-help"

    /// The names never taken from a file: help, version, and the file's own option.
    static let reservedKeys: Set<String> = ["help", "version", ConfigFileOption.longName]

    public func option(forKey key: String) -> Option? {
        options.first { $0.key == key }
    }

    /// The long names `help` (ArgumentParser's `--help` text) shows that are no key of `options`
    /// and not reserved: options the JSON help missed. The check is independent of the JSON, so a
    /// change in either is caught by the shipped files' tests.
    public static func unreadable(by options: CommandOptions, help: String) -> [String] {
        // An option's own line starts with two spaces and its names, up to the next two spaces;
        // names in the prose after (another command's `--role`) are not this command's.
        let shown = Set(help.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
            let names = line.dropFirst(2).split(separator: "  ", maxSplits: 1).first ?? ""
            return names.matches(of: /--([a-z][a-z0-9-]*)/).map { String($0.1) }
        })
        let keys = Set(options.options.map(\.key))
        return shown.subtracting(keys).subtracting(reservedKeys).subtracting([dumpRequest.dropFirst(2)].map(String.init)).sorted()
    }

    /// The other half of an on/off pair (`no-x` for `x`, `x` for `no-x`), if the command has one.
    public func twin(of option: Option) -> Option? {
        self.option(forKey: Self.twinKey(of: option.key))
    }

    static func twinKey(of key: String) -> String {
        key.hasPrefix("no-") ? String(key.dropFirst(3)) : "no-" + key
    }

    /// The option a command-line word like `--port`, `--port=80` or `-p` names, if any.
    func option(named word: String) -> Option? {
        let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        return options.first { $0.spellings.contains(name) }
    }
}

extension CommandOptions.Option {
    fileprivate init?(_ argument: ArgumentInfo) {
        guard let kind = argument.kind, let names = argument.names,
              let long = ([argument.preferredName].compactMap { $0 } + names).first(where: { $0.kind == "long" }),
              !CommandOptions.reservedKeys.contains(long.name)
        else { return nil }
        key = long.name
        self.kind = kind
        spellings = names.map { ($0.kind == "short" ? "-" : "--") + $0.name }
        isRepeating = argument.isRepeating
        defaultValue = argument.defaultValue
        abstract = argument.abstract ?? ""
    }
}

/// The parts of ArgumentParser's `ToolInfoV0` this reads.
struct ToolInfo: Decodable {
    struct Command: Decodable {
        var commandName: String
        var aliases: [String]?
        var subcommands: [Command]?
        fileprivate var arguments: [ArgumentInfo]?

        /// Every name the command answers to.
        var names: [String] { [commandName] + (aliases ?? []) }
    }

    var command: Command
}

private struct ArgumentInfo: Decodable {
    struct Name: Decodable {
        var kind: String
        var name: String
    }

    /// nil for positional arguments, which a file cannot set.
    var kind: CommandOptions.Option.Kind?
    var names: [Name]?
    var preferredName: Name?
    var isRepeating: Bool
    var defaultValue: String?
    var abstract: String?

    enum CodingKeys: String, CodingKey {
        case kind, names, preferredName, isRepeating, defaultValue, abstract
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = CommandOptions.Option.Kind(rawValue: try container.decode(String.self, forKey: .kind))
        names = try container.decodeIfPresent([Name].self, forKey: .names)
        preferredName = try container.decodeIfPresent(Name.self, forKey: .preferredName)
        isRepeating = try container.decode(Bool.self, forKey: .isRepeating)
        defaultValue = try container.decodeIfPresent(String.self, forKey: .defaultValue)
        abstract = try container.decodeIfPresent(String.self, forKey: .abstract)
    }
}
