import Foundation

/// A configuration file written to a fresh temporary folder, removed with the folder when the test ends.
struct ConfigFixture: ~Copyable {
    let directory: URL
    let path: String

    init(_ text: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("sample.toml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        self.directory = directory
        self.path = path
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}
