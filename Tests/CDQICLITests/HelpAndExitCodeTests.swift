import Foundation
import Testing

/// `--help`, `--version` and the exit status of each kind of failure, from the built binary.
@Suite struct HelpAndExitCodeTests {
    private func expected(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Expected").appendingPathComponent(name)
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test func helpMatchesTheGoldenText() throws {
        let output = try CommandRunner.run(["--help"])
        #expect(output.status == 0)
        #expect(output.standardOutput == (try expected("help.txt")))
        #expect(output.standardError.isEmpty)
    }

    @Test func generateHelpMatchesTheGoldenText() throws {
        let output = try CommandRunner.run(["generate", "--help"])
        #expect(output.status == 0)
        #expect(output.standardOutput == (try expected("generate-help.txt")))
    }

    @Test func versionPrintsOneLine() throws {
        let output = try CommandRunner.run(["--version"])
        #expect(output.status == 0)
        #expect(output.standardOutput == "0.1.0\n")
    }

    @Test(arguments: [
        ["--bogus"],
        ["Company", "--indent", "0"],
        ["Company", "--indent", "many"],
        ["Company", "--suffix", "At-tr"],
        ["Company", "--suffix", ""],
    ])
    func badUsageExits64(arguments: [String]) throws {
        let output = try CommandRunner.run(arguments)
        #expect(output.status == 64)
        #expect(output.standardError.contains("Error:"))
        #expect(output.standardOutput.isEmpty)
    }

    @Test func unknownEntityIsAUsageError() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Company.xcdatamodeld")
        let output = try CommandRunner.run(["Company", "-x", "Nobody", "-w", "Employee", "-w", "Ghost"], in: folder.url)
        #expect(output.status == 64)
        let lines = output.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(
            lines[0].hasSuffix(
                "Company.xcdatamodel/contents: error: no entity named 'Ghost' in the Company model (entities: Department, Employee, TestEntity)"))
        #expect(lines[1].contains("error: no entity named 'Nobody'"))
        #expect(folder.files() == ["Company.xcdatamodeld"])
    }

    @Test func missingModelFailsWithStatus1() throws {
        let folder = try TemporaryFolder()
        let output = try CommandRunner.run(["Nowhere"], in: folder.url)
        #expect(output.status == 1)
        #expect(output.standardError.contains("error: no model named 'Nowhere'"))
        #expect(output.standardError.contains("--in"))
    }

    @Test func missingSearchFolderFailsWithStatus1() throws {
        let folder = try TemporaryFolder()
        let output = try CommandRunner.run(["Company", "--in", folder.url.appendingPathComponent("absent").path])
        #expect(output.status == 1)
        #expect(output.standardError.contains("absent: error: the folder to search does not exist"))
    }

    @Test(arguments: [
        "Truncated", "UnknownType", "MissingEntity", "BadInverse", "DuplicateInherited", "ManyProblems", "NotXML", "Legacy",
        "BillionLaughs", "ExternalEntity", "MissingVersion", "Empty",
    ])
    func malformedModelsGiveErrorsAndStatus1NeverACrash(name: String) throws {
        let malformed = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Malformed")
        let output = try CommandRunner.run([name, "--in", malformed.path, "--dry-run"])
        #expect(!output.crashed)
        #expect(output.status == 1)
        #expect(output.standardError.contains(": error: "))
        #expect(output.standardOutput.isEmpty)
    }

    @Test func aHundredMegabyteModelIsRefusedWithStatus1() throws {
        let folder = try TemporaryFolder()
        let version = folder.url.appendingPathComponent("Huge.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let contents = version.appendingPathComponent("contents")
        #expect(FileManager.default.createFile(atPath: contents.path, contents: nil))
        let handle = try FileHandle(forWritingTo: contents)
        try handle.truncate(atOffset: 100 << 20)  // sparse: no 100 MB written to disk
        try handle.close()
        let output = try CommandRunner.run(["Huge", "--in", folder.url.path])
        #expect(!output.crashed)
        #expect(output.status == 1)
        #expect(output.standardError.contains("Huge.xcdatamodel/contents: error: model file is 104857600 bytes, over the 67108864-byte limit"))
    }
}
