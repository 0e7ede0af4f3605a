import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A shipped configuration file that lists every setting of its command, each commented out with
/// its default (`#port = 8080`) unless the package sets it (`state-dir = "/var/lib/…"`).
///
/// Its checks keep the file honest as options are added: every option is listed, every listed key
/// is an option, and each commented value is the option's real default where ArgumentParser knows it.
public struct ConfigTemplate: Sendable {
    /// A `key = value` line, commented out or not.
    struct Line: Sendable {
        let number: Int
        let key: String
        let assignment: String
        let isActive: Bool
    }

    public let path: String
    public let text: String
    let lines: [Line]

    public init(path: String, text: String) {
        self.path = path
        self.text = text
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, raw in
            let isActive = !raw.hasPrefix("#")
            let body = isActive ? raw[...] : raw.dropFirst()
            guard let equals = body.firstRange(of: " = "), body.first?.isLetter == true else { return nil }
            let key = body[..<equals.lowerBound]
            guard key.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else { return nil }
            return Line(number: index + 1, key: String(key), assignment: String(body), isActive: isActive)
        }
    }

    /// The file with every commented setting switched on (where the file does not set it already):
    /// loading it must succeed and pass the command's checks.
    public var everySettingOn: String {
        let active = Set(lines.filter(\.isActive).map(\.key))
        var seen: Set<String> = []
        return lines.filter { line in
            guard line.isActive || !active.contains(line.key) else { return false }
            return seen.insert(line.key).inserted
        }.map(\.assignment).joined(separator: "\n") + "\n"
    }

    /// What is wrong with the file for `options`, one sentence each; empty when nothing is.
    public func problems(against options: CommandOptions) -> [String] {
        let listed = Set(lines.map(\.key))
        var problems: [String] = []
        for option in options.options where !listed.contains(option.key) && !listed.contains(CommandOptions.twinKey(of: option.key)) {
            problems.append("\(path) does not list the setting '\(option.key)' (\(option.abstract))")
        }
        for line in lines where options.option(forKey: line.key) == nil {
            problems.append("\(path) line \(line.number): '\(line.key)' is no option of the command")
        }
        for line in lines where !line.isActive {
            guard let option = options.option(forKey: line.key), let expected = Self.defaultText(of: option, in: options) else { continue }
            let shown: String?
            do {
                shown = try ConfigFile(path: path, text: line.assignment).settings.first?.value.argumentText
            } catch {
                problems.append("\(path) line \(line.number): \(error)")
                continue
            }
            if shown != expected {
                problems.append("\(path) line \(line.number): '\(line.key)' shows \(shown ?? "nothing") but its default is \(expected)")
            }
        }
        return problems
    }

    /// The default as a file would write it (`8080`, `true`); nil when ArgumentParser does not know it.
    private static func defaultText(of option: CommandOptions.Option, in options: CommandOptions) -> String? {
        guard option.kind == .flag else { return option.defaultValue }
        if option.defaultValue == "--" + option.key { return "true" }
        let twin = options.twin(of: option)
        if let twin, twin.defaultValue == "--" + twin.key { return "false" }
        return twin == nil ? "false" : nil
    }
}

extension ConfigTemplate {
    /// Every problem of the shipped file at `path` for `command`: what `problems(against:)` finds,
    /// and any error the command gives for the file as shipped or with every setting switched on
    /// (a key that is no option, a value its conversion or `validate()` refuses).
    ///
    /// - Throws: only when the file cannot be read.
    public static func problems<Command: ParsableArguments>(ofFileAt path: String, for command: Command.Type) throws -> [String] {
        let template = ConfigTemplate(path: path, text: try String(contentsOfFile: path, encoding: .utf8))
        let options = CommandOptions(command)
        var problems = template.problems(against: options)
        for name in CommandOptions.unreadable(by: options, help: command.helpMessage(includeHidden: true, columns: 1_000)) {
            problems.append("--\(name) is in \(command)'s --help but no setting of a file can give it")
        }
        // Each setting alone, as the file shows it: it must reach the command as its option's words.
        for line in template.everySettingOn.split(separator: "\n") {
            do {
                let arguments = try ConfigArguments(file: ConfigFile(path: path, text: String(line)), options: options, commandLine: [])
                guard let applied = arguments.applied.first else { continue }
                let names = [applied.option] + (options.twin(of: applied.option).map { [$0] } ?? [])
                let reaches = arguments.words.allSatisfy { word in names.contains { word.hasPrefix("--" + $0.key) } }
                if !reaches || (arguments.words.isEmpty && options.twin(of: applied.option) != nil) {
                    problems.append("\(path): '\(line)' does not reach --\(applied.option.key)")
                }
                // Not parsed alone: options that only go in pairs (--tls-certificate with --tls-key)
                // are refused by `validate()` one at a time. Every value is parsed below, all on.
            } catch {
                problems.append("\(path): '\(line)' alone: \(command.message(for: error))")
            }
        }
        for (name, text) in [("as shipped", template.text), ("with every setting switched on", template.everySettingOn)] {
            do {
                let words = try ConfigArguments(file: ConfigFile(path: path, text: text), options: options, commandLine: []).words
                _ = try command.parse(words)
            } catch {
                problems.append("\(path) \(name): \(command.message(for: error))")
            }
        }
        return problems
    }
}
