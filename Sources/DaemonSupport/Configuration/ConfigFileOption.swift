import ArgumentParser

/// `--config PATH`, for a command whose settings may come from a TOML file.
///
/// Add it with `@OptionGroup var configFile: ConfigFileOption` and start the program with
/// `main(configuring:)`, which reads the file before ArgumentParser parses anything.
public struct ConfigFileOption: ParsableArguments {
    static let longName = "config"

    @Option(
        name: .customLong(longName),
        help: ArgumentHelp(
            "TOML file of settings, one per option: the key is the long option without its dashes (port = 8080, no-x = true or x = false for a flag). Options given on the command line win.",
            valueName: "path"
        )
    )
    public var path: String?

    public init() {}
}
