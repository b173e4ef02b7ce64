import Foundation
import Testing

/// Several `cdqi import`s creating one store at the same moment (issue 15, finding 2): exactly one
/// creates it, the others import into it, every import that reports success is in the store, and no
/// clean-up removes a store another process created.
@Suite struct ConcurrentImportTests {
    /// A document of one Department and `employees` Employees, `_id`s prefixed so that documents differ.
    private static func document(tag: String, employees: Int) -> String {
        let list = (0..<employees).map {
            #"{"_id": "\#(tag)\#($0)", "firstName": "F\#($0)", "lastName": "\#(tag)", "salary": \#($0), "department": "\#(tag)d"}"#
        }
        return #"{"Department": [{"_id": "\#(tag)d", "name": "\#(tag)"}], "Employee": [\#(list.joined(separator: ", "))]}"#
    }

    /// Starts every process at once, then waits for all; returns each one's status and standard error.
    private static func runTogether(_ argumentLists: [[String]], in folder: URL) throws -> [(status: Int32, error: String)] {
        let binary = try CommandRunner.binary()
        var launched: [(Process, URL)] = []
        for (index, arguments) in argumentLists.enumerated() {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            let errURL = folder.appendingPathComponent("err-\(index)")
            _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errURL)
            process.standardOutput = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            launched.append((process, errURL))
        }
        for (process, _) in launched { try process.run() }
        return launched.map { process, errURL in
            process.waitUntilExit()
            return (process.terminationStatus, (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
        }
    }

    @Test("2 and 4 imports creating one store together: all succeed and every object is in the store")
    func concurrentCreation() throws {
        let folder = try TemporaryFolder()
        let model = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path
        let employees = 300
        var documents: [String] = []
        for tag in ["a", "b", "c", "d"] {
            let url = folder.url.appendingPathComponent("\(tag).json")
            try Data(Self.document(tag: tag, employees: employees).utf8).write(to: url)
            documents.append(url.path)
        }
        for round in 0..<8 {
            let processes = round % 2 == 0 ? 2 : 4
            let store = folder.url.appendingPathComponent("round-\(round).sqlite").path
            let results = try Self.runTogether(documents.prefix(processes).map { ["import", model, store, $0] }, in: folder.url)
            for result in results {
                #expect(result.status == 0, "round \(round): \(result.error)")
            }
            // Each document holds 1 Department and 300 Employees, so the store holds `processes` × that.
            let count = try CommandRunner.run(["query", model, store, "--entity", "Employee", "--count"])
            #expect(count.standardOutput == "\(processes * employees)\n", "round \(round): \(count.standardError)")
            let departments = try CommandRunner.run(["query", model, store, "--entity", "Department", "--count"])
            #expect(departments.standardOutput == "\(processes)\n")
            // No scratch file is left in the folder.
            #expect(folder.files().filter { $0.hasPrefix(".round-") }.isEmpty)
        }
    }
}
