import Foundation

/// Runs the built `cdqi` binary and captures what it prints.
struct CommandRunner {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// Whether the process ended by a signal (a crash) rather than by exiting.
        var crashed: Bool
    }

    /// Why the binary could not be run.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `cdqi` binary. The test target depends on `cdqi`, so SwiftPM builds it into the same folder
    /// as the test bundle; look beside the running test executable and up from it (on macOS the
    /// executable is inside `X.xctest/Contents/MacOS`). `CDQI_BINARY` overrides the search.
    static func binary() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["CDQI_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable) }
        if let first = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: first)) }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            starts.append(bundle.bundleURL)
        }
        for start in starts {
            var folder = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                let candidate = folder.appendingPathComponent("cdqi")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: candidate.path)
                {
                    return candidate
                }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw Failure(description: "cannot find the cdqi binary near \(starts.map(\.path)); set CDQI_BINARY")
    }

    /// Runs `cdqi` with `arguments` in `directory`, with an 80-column terminal width for stable help, and
    /// the file `input` (else nothing) as standard input.
    static func run(_ arguments: [String], in directory: URL? = nil, input: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        process.environment = environment
        // Files rather than pipes: a full pipe cannot block the child while we wait for it.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Output(
            status: process.terminationStatus,
            standardOutput: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "",
            crashed: process.terminationReason == .uncaughtSignal
        )
    }
}

/// A temporary folder, removed when the test ends.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Copies a fixture model (a path under `Fixtures/`) into `subfolder` of this folder.
    @discardableResult
    func copyFixture(_ name: String, into subfolder: String = "") throws -> URL {
        let source = CommandRunner.packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(name)
        let folder = url.appendingPathComponent(subfolder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let destination = folder.appendingPathComponent(source.lastPathComponent)
        try FileManager.default.copyItem(at: source, to: destination)
        return destination
    }

    func contents(_ relativePath: String) -> String? {
        try? String(contentsOf: url.appendingPathComponent(relativePath), encoding: .utf8)
    }

    func files(in relativePath: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(relativePath).path)) ?? []).sorted()
    }
}
