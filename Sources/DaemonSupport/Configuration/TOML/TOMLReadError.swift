/// Why ``TOMLReader`` stopped. Lines and columns are 1-based; a column counts bytes of UTF-8 from the
/// start of its line.
enum TOMLReadError: Error, Equatable {
    /// The text is not TOML (or not the part of TOML this reader knows, which is all of TOML 1.0
    /// but tables, inline tables, dotted keys and dates).
    case syntax(line: Int, column: Int, reason: String)
    /// Valid TOML of a kind no command-line option takes: `what` is "a table", "a date or time", …;
    /// `key` is the setting (or the table's name) and `line` where it starts.
    case unsupported(key: String, line: Int, what: String)
}
