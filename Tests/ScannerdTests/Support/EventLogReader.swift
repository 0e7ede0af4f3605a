import Foundation

/// The event log's lines as JSON objects.
struct EventLogReader {
    let path: String

    func lines() throws -> [[String: Any]] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        }
    }

    func events(_ name: String) throws -> [[String: Any]] {
        try lines().filter { $0["event"] as? String == name }
    }

    /// Event names in order, with their revision when they have one: `["scanning 2", "idle 2"]`.
    func sessionTimeline() throws -> [String] {
        try lines().compactMap { line in
            guard let name = line["event"] as? String, ["switch", "scanning", "idle"].contains(name) else { return nil }
            return "\(name) \(line["revision"] as? Int ?? -1)"
        }
    }
}
