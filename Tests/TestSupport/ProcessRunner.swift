import Foundation

/// Runs a command (through `/usr/bin/env`, so `swift` and `git` are found on the PATH) in a folder, with
/// no standard input, and returns its exit status and everything it printed, standard output and error
/// together (through a log file in the folder, so a long build's output cannot fill a pipe).
public enum ProcessRunner {
    public static func run(_ arguments: [String], in directory: URL, logName: String = "command.log") throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let logURL = directory.appendingPathComponent(logName)
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try log.close()
        return (process.terminationStatus, (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
    }
}
