/// Sets `key = "value"` lines in the text of a TOML settings file such as
/// /etc/floorscan/scannerd.toml, keeping every other line (comments, order, the operator's
/// settings) as it was: the first active line of the key is replaced; without one, the line goes
/// after the key's commented default (`#key = …`), or at the end.
enum TOMLSettingEdit {
    static func setting(_ key: String, to value: String, in text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = "\(key) = \(quoted(value))"
        if let active = lines.firstIndex(where: { keyOf($0, commented: false) == key }) {
            lines[active] = line
        } else if let commented = lines.lastIndex(where: { keyOf($0, commented: true) == key }) {
            lines.insert(line, at: commented + 1)
        } else {
            if lines.last == "" { lines.removeLast() }
            lines.append(line)
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// The text with every active line of `key` commented out (`#key = …`), so a setting that no
    /// longer applies falls back to its default and stays visible to the operator.
    static func commentingOut(_ key: String, in text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            keyOf(String(line), commented: false) == key ? "#" + line.drop(while: { $0 == " " || $0 == "\t" }) : line
        }.joined(separator: "\n")
    }

    /// The key a line sets (`key = …`), or, with `commented`, the key of a commented-out setting
    /// (`#key = …`); nil for anything else.
    static func keyOf(_ line: String, commented: Bool) -> String? {
        var rest = Substring(line).drop(while: { $0 == " " || $0 == "\t" })
        if commented {
            guard rest.first == "#" else { return nil }
            rest = rest.dropFirst().drop(while: { $0 == " " })
        } else if rest.first == "#" {
            return nil
        }
        let key = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        guard !key.isEmpty else { return nil }
        let after = rest.dropFirst(key.count).drop(while: { $0 == " " || $0 == "\t" })
        return after.first == "=" ? String(key) : nil
    }

    /// A TOML basic string: quotes, backslashes and control characters escaped.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
