import ArgumentParser

extension ParsableCommand {
    /// The program's arguments with the settings of the `--config` file, if one is given to
    /// `configured`, put in as words before the command line's own, so the command line wins.
    ///
    /// - Parameters:
    ///   - arguments: the program's arguments without the program name.
    ///   - configured: the command that takes `--config` (this root itself or one of its subcommands).
    /// - Returns: the arguments to parse, and the file's words when a file was read.
    /// - Throws: `ConfigFileError` when the file cannot be read or parsed, or a key or value does not fit.
    public static func arguments(
        _ arguments: [String], configuring configured: any ParsableCommand.Type
    ) throws(ConfigFileError) -> (arguments: [String], file: ConfigArguments?) {
        guard let invocation = ConfigInvocation(arguments: arguments, root: self, configured: configured),
              let path = invocation.configPath
        else { return (arguments, nil) }
        var file = try ConfigArguments(
            file: ConfigFile.load(path: path), options: CommandOptions(configured), commandLine: Array(invocation.words)
        )
        file.start = invocation.start
        var expanded = arguments
        expanded.insert(contentsOf: file.words, at: invocation.start)
        return (expanded, file)
    }
}

extension AsyncParsableCommand {
    /// Like `main()`, with the settings of `configured`'s `--config` file read first.
    ///
    /// On failure prints the error and exits as `main()` does; an error about a value that came from
    /// the file names the file, the line and the setting.
    public static func main(configuring configured: any ParsableCommand.Type) async {
        let given = Array(CommandLine.arguments.dropFirst())
        let arguments: [String]
        let file: ConfigArguments?
        do {
            (arguments, file) = try self.arguments(given, configuring: configured)
        } catch {
            exit(withError: error)
        }
        var command: any ParsableCommand
        do {
            command = try await asyncParseAsRoot(arguments)
        } catch {
            guard exitCode(for: error) != .success, let blamed = file?.blame(arguments, failure: parseFailure) else {
                exit(withError: error)
            }
            exit(withError: blamed)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

extension ParsableCommand {
    /// The message of the error parsing `arguments` as this root command gives; nil when they parse.
    public static func parseFailure(_ arguments: [String]) -> String? {
        do {
            _ = try parseAsRoot(arguments)
            return nil
        } catch {
            return message(for: error)
        }
    }
}
