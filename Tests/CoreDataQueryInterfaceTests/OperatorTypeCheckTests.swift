import Foundation
import Testing

/// Compiles snippets against the built CoreDataQueryInterface module with `swiftc -typecheck`:
/// a well-typed comparison must compile and a String attribute compared with a number must not.
/// Gated behind CDQI_E2E=1 because each compile takes a few seconds.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CDQI_E2E"] == "1", "set CDQI_E2E=1 to run"))
struct OperatorTypeCheckTests {
    /// The `Modules` directory next to the test bundle, and the package root from this file's path.
    private static func typecheck(_ body: String) throws -> (status: Int32, errors: String) {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
        let modules = testBinary.deletingLastPathComponent().appendingPathComponent("Modules").path
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-typecheck-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("snippet.swift")
        try """
        import CoreDataQueryInterface
        final class A: EntityAttribute {
            lazy var lastName = StringAttribute(key: "lastName", parent: self)
            lazy var salary = Integer32Attribute(key: "salary", parent: self)
        }
        let a = A()
        \(body)
        """.write(to: source, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-I", modules,
            "-Xcc", "-fmodule-map-file=\(root.path)/Sources/CSQLite/module.modulemap",
            "-Xcc", "-fmodule-map-file=\(root.path)/Sources/CLibXML2/module.modulemap",
            "-I", "/usr/include/libxml2", source.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func wellTypedComparisonsCompile() throws {
        let result = try Self.typecheck(#"_ = a.lastName == "x" && a.salary > 5"#)
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test func stringAttributeComparedWithNumberDoesNotCompile() throws {
        let result = try Self.typecheck("_ = a.lastName == 5")
        #expect(result.status != 0)
        // The failure must be on the comparison (line 7), not a broken setup.
        #expect(result.errors.contains("snippet.swift:7:"))
        #expect(!result.errors.contains("no such module"))
    }

    @Test func integerAttributeComparedWithStringDoesNotCompile() throws {
        let result = try Self.typecheck(#"_ = a.salary < "high""#)
        #expect(result.status != 0)
        #expect(result.errors.contains("snippet.swift:7:"))
        #expect(!result.errors.contains("no such module"))
    }
}
