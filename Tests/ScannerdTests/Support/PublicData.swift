import Foundation

/// The public datasets in ../shared/data (relative to the repository root) or $FLOORSCAN_DATA.
enum PublicData {
    static func folder(_ name: String) -> String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let base = ProcessInfo.processInfo.environment["FLOORSCAN_DATA"] ?? root.deletingLastPathComponent().appendingPathComponent("shared/data").path
        let path = base + "/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            print("SKIP: \(name) not found at \(path); set FLOORSCAN_DATA to the folder holding it")
            return nil
        }
        return path
    }
}
