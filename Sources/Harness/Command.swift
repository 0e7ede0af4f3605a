import Foundation

/// What a command that ran to its end printed, and how it ended.
public struct CommandResult: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
}

/// Runs one of the built executables (`switchd token issue …`) to its end.
///
/// - Throws: ``HarnessError`` when the executable is missing or cannot be started.
public func runToEnd(_ executable: String, _ arguments: [String]) async throws -> CommandResult {
    try await runToEnd(at: try Binaries.url(executable), arguments)
}

/// Runs the program at `url` (a system tool such as `/usr/bin/openssl`) to its end.
///
/// - Throws: ``HarnessError`` when it cannot be started.
public func runToEnd(at url: URL, _ arguments: [String]) async throws -> CommandResult {
    let executable = url.lastPathComponent
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    do {
        try ProcessLaunch.run(process)
    } catch {
        throw HarnessError("cannot start \(executable): \(error)")
    }
    // Read both pipes to their end before waiting, so a full pipe cannot stall the child.
    async let printed = Task.detached { output.fileHandleForReading.readDataToEndOfFile() }.value
    async let complained = Task.detached { errors.fileHandleForReading.readDataToEndOfFile() }.value
    let (standardOutput, standardError) = await (printed, complained)
    // Foundation on Linux keeps every `Process` it started alive, and with it these pipes,
    // unless they are closed here.
    try? output.fileHandleForReading.close()
    try? errors.fileHandleForReading.close()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus,
        standardOutput: String(decoding: standardOutput, as: UTF8.self),
        standardError: String(decoding: standardError, as: UTF8.self)
    )
}
