#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The text of a token file (`admin.token`, `--admin-token-file`, scannerd's `--token-file`).
public enum TokenFileText {
    /// The token a file holds: its first line, spaces trimmed; nil when that is empty or holds a
    /// space (not one token).
    public static func token(in text: String) -> String? {
        let line = text.split(whereSeparator: \.isNewline).first.map(trimmingSpaces) ?? ""
        return line.isEmpty || line.contains(" " as Character) ? nil : line
    }

    private static func trimmingSpaces(_ line: Substring) -> String {
        var line = line
        while line.first?.isWhitespace == true { line.removeFirst() }
        while line.last?.isWhitespace == true { line.removeLast() }
        return String(line)
    }

    /// Why a token file gave no token; the description reads on from the file's name.
    public enum ReadError: Error, CustomStringConvertible {
        case unreadable(reason: String)
        case noToken

        public var description: String {
            switch self {
            case .unreadable(let reason): "cannot be read: \(reason)"
            case .noToken: "holds no token (one line, no spaces, expected)"
            }
        }
    }

    /// The token in the file at `path` (see ``token(in:)``).
    public static func read(_ path: String) throws(ReadError) -> String {
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            throw .unreadable(reason: error.reason)
        }
        guard let token = token(in: text) else { throw .noToken }
        return token
    }
}
