import ArgumentParser

/// Where, in a program's arguments, the words of one configurable command are: after its subcommand
/// name, or from the start when it is the root or the root's default subcommand.
struct ConfigInvocation {
    /// Index of the configurable command's first word; the file's words go in there.
    let start: Int
    /// The configurable command's own words (up to the next subcommand name, if it has subcommands).
    let words: ArraySlice<String>

    /// nil when the arguments run some other subcommand.
    init?(arguments: [String], root: any ParsableCommand.Type, configured: any ParsableCommand.Type) {
        if Self.same(root, configured) {
            start = 0
        } else if let first = arguments.first, Self.subcommandNames(of: root).contains(first) {
            guard Self.names(of: configured).contains(first) else { return nil }
            start = 1
        } else if let defaultSubcommand = root.configuration.defaultSubcommand, Self.same(defaultSubcommand, configured) {
            start = 0
        } else {
            return nil
        }
        let ownNames = Self.subcommandNames(of: configured)
        let end = arguments[start...].firstIndex { ownNames.contains($0) } ?? arguments.endIndex
        words = arguments[start..<end]
    }

    /// The `--config` path among the command's words, if given (`--config PATH` or `--config=PATH`).
    var configPath: String? {
        let flag = "--" + ConfigFileOption.longName
        for (offset, word) in zip(words.indices, words) {
            if word == "--" { return nil }
            if word == flag { return words.indices.contains(offset + 1) ? words[offset + 1] : nil }
            if word.hasPrefix(flag + "=") { return String(word.dropFirst(flag.count + 1)) }
        }
        return nil
    }

    /// The names of `command`'s subcommands, from its JSON help (ArgumentParser's own `help` left out).
    private static func subcommandNames(of command: any ParsableCommand.Type) -> Set<String> {
        Set((info(of: command).subcommands ?? []).flatMap(\.names)).subtracting(["help"])
    }

    private static func names(of command: any ParsableCommand.Type) -> [String] {
        info(of: command).names
    }

    private static func info(of command: any ParsableCommand.Type) -> ToolInfo.Command {
        CommandOptions.helpJSON(of: command) { _ = try command.parseAsRoot($0) }.command
    }

    private static func same(_ a: any ParsableCommand.Type, _ b: any ParsableCommand.Type) -> Bool {
        ObjectIdentifier(a) == ObjectIdentifier(b)
    }
}
