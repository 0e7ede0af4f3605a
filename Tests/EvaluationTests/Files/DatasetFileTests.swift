@testable import Evaluation
import Foundation
import Harness
import Testing

@Suite final class DatasetFileTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("dataset-file") }

    deinit { folder.remove() }

    func write(_ bytes: [UInt8], _ name: String) -> String {
        let path = folder.path(name)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    func gzip(_ text: String) throws -> [UInt8] {
        let plain = write(Array(text.utf8), "plain-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", plain]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    @Test func plainFilesAreReadAsTheyAre() throws {
        let path = write(Array("a,b\r\n1,2\n".utf8), "plain.csv")
        #expect(try DatasetFile.lines(of: path) == ["a,b", "1,2"])
    }

    @Test func gzipIsInflatedWhateverTheName() throws {
        let path = write(try gzip("x\ny\n"), "data.csv")
        #expect(try DatasetFile.lines(of: path) == ["x", "y"])
    }

    @Test func concatenatedGzipMembersAreAllRead() throws {
        let path = write(try gzip("first\n") + gzip("second\n"), "two.gz")
        #expect(try DatasetFile.lines(of: path) == ["first", "second"])
    }

    @Test func aTruncatedGzipFileIsAClearError() throws {
        let whole = try gzip(String(repeating: "fingerprint,-70\n", count: 2000))
        let path = write(Array(whole.prefix(whole.count / 2)), "cut.gz")
        #expect {
            try DatasetFile.contents(of: path)
        } throws: { error in
            "\(error)".contains("truncated")
        }
    }

    @Test func aMissingFileNamesThePath() {
        #expect {
            try DatasetFile.contents(of: folder.path("absent.csv"))
        } throws: { error in
            "\(error)".contains("absent.csv")
        }
    }
}
