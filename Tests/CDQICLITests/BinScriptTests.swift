import Foundation
import Testing

/// `bin/cdqi` builds the release binary on first use and runs it, from any folder and through a
/// symlink. A release build is slow, so this runs only when `CDQI_E2E=1`.
@Suite struct BinScriptTests {
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["CDQI_E2E"] == "1", "set CDQI_E2E=1 to build cdqi in release mode via bin/cdqi (slow)"),
        .timeLimit(.minutes(20))
    )
    func buildsOnFirstUseAndRunsFromAnyFolder() throws {
        let folder = try TemporaryFolder()
        let buildPath = folder.url.appendingPathComponent("build").path
        let script = CommandRunner.packageRoot.appendingPathComponent("bin/cdqi").path
        let link = folder.url.appendingPathComponent("cdqi-link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: script)

        let first = try run(link.path, ["--version"], buildPath: buildPath, in: folder.url)
        #expect(first.status == 0)
        #expect(first.output == "0.1.0\n")
        // A build that takes minutes says so, and the command it runs, before it starts.
        #expect(first.errors.hasPrefix("bin/cdqi: building cdqi (release; minutes on first use"))
        #expect(first.errors.contains("$ swift build -c release --product cdqi --scratch-path build\n"))
        #expect(first.errors.contains("bin/cdqi: built in "))
        #expect(FileManager.default.isExecutableFile(atPath: buildPath + "/release/cdqi"))

        // Second use: no rebuild needed, same answer, and the model is found relative to the caller.
        try folder.copyFixture("Developers.xcdatamodeld", into: "Model")
        let second = try run(script, ["Developers", "--dry-run"], buildPath: buildPath, in: folder.url)
        #expect(second.status == 0)
        #expect(second.output.contains("would write \(folder.url.path)/Model/DeveloperAttribute.swift"))
        #expect(!second.errors.contains("building cdqi"))
    }

    private func run(_ script: String, _ arguments: [String], buildPath: String, in directory: URL) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", script] + arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["CDQI_BUILD_PATH"] = buildPath
        process.environment = environment
        let outURL = directory.appendingPathComponent("script.out")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let errURL = directory.appendingPathComponent("script.err")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return (
            process.terminationStatus, (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        )
    }
}
