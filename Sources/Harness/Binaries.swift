import Foundation

/// Where the built `switchd` and `scannerd` executables are: `$FLOORSCAN_BIN_DIR`, or the folder of
/// the running test bundle or benchmark (SwiftPM puts every product of a build side by side).
public enum Binaries {
    public static var directory: URL {
        if let given = ProcessInfo.processInfo.environment["FLOORSCAN_BIN_DIR"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    public static func url(_ name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw HarnessError("no \(name) executable in \(directory.path): run `swift build` first, or set FLOORSCAN_BIN_DIR")
        }
        return url
    }
}

/// A fresh temporary folder, removed by ``remove()``.
public struct TemporaryFolder: Sendable {
    public let url: URL

    public init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("floorscan-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ component: String) -> String {
        url.appendingPathComponent(component).path
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
