/// Where each top-level key of a TOML text is, since the parser keeps no positions for values.
///
/// Finds bare keys (`port = 8080`) and quoted ones (`"port" = 8080`) before the first table header;
/// a key written any other way has no line, and errors about it name only the file.
struct KeyLines {
    private var lines: [String: Int] = [:]

    init(text: String) {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("[") { break }
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            var key = trimmed[..<equals].trimmingSuffix { $0 == " " || $0 == "\t" }
            if key.count >= 2, let first = key.first, first == key.last, first == "\"" || first == "'" {
                key = key.dropFirst().dropLast()
            }
            if lines[String(key)] == nil { lines[String(key)] = index + 1 }
        }
    }

    /// 1-based line of `key`, or nil when it was not found.
    func line(of key: String) -> Int? { lines[key] }
}

extension Substring {
    fileprivate func trimmingSuffix(while isTrimmed: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, isTrimmed(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
