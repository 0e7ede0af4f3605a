import Foundation

/// A file of this repository by its path from the root, found by walking up from the calling
/// test's own source file to the folder that holds `Package.swift`, so a test keeps finding it
/// when test files move between folders.
func repositoryFile(_ relativePath: String, from file: String = #filePath) -> String {
    var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
    while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent(relativePath).path
}
