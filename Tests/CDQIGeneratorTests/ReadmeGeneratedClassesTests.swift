import CDQIModel
import Foundation
import Testing

@testable import CDQIGenerator

/// The documentation's snippet for generated classes (Getting Started, moved from the README) against what it shows: the class excerpt against the
/// code `cdqi Company --objects` writes, and the app part against the example program, which the
/// end-to-end test builds and runs (its output is checked there).
@Suite("Getting Started: generated classes")
struct ReadmeGeneratedClassesTests {
    /// The Getting Started article's Swift block that starts with `// Employee.swift (generated)`, split at
    /// the line that starts the app part.
    private func readmeSnippet() throws -> (classPart: [String], appPart: [String]) {
        let readme = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent(
                "Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/GettingStarted.md"),
            encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "// Employee.swift (generated)"))
        let end = try #require(lines[start...].firstIndex(of: "```"))
        let app = try #require(lines[start..<end].firstIndex { $0.hasPrefix("// In the app") })
        return (Array(lines[(start + 1)..<app]), Array(lines[(app + 1)..<end]))
    }

    @Test("the class excerpt is what cdqi --objects writes for Employee")
    func classExcerpt() throws {
        let loaded = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("Company.xcdatamodeld"))
        let files = ProxyGenerator(options: GeneratorOptions(objectClasses: .all)).generate(loaded.model, modelName: "Company").files()
        let employee = try #require(files.first { $0.name == "Employee.swift" }).contents
        // Blocks separated by blank lines, without the elision mark and the class's closing brace.
        var blocks: [[String]] = [[]]
        for line in try readmeSnippet().classPart {
            if line.isEmpty {
                blocks.append([])
            } else if line.trimmingCharacters(in: .whitespaces) != "…" {
                blocks[blocks.count - 1].append(line)
            }
        }
        blocks = blocks.filter { !$0.isEmpty }
        if blocks.last?.last == "}" { blocks[blocks.count - 1].removeLast() }
        #expect(blocks.count == 3)
        for block in blocks {
            #expect(employee.contains(block.joined(separator: "\n")), "not in the generated Employee.swift:\n\(block.joined(separator: "\n"))")
        }
    }

    @Test("the app part is the example program's, line for line")
    func appPart() throws {
        let source = try String(
            contentsOf: EndToEndCompileTests.exampleFolder.appendingPathComponent("Sources/CompanyExample/main.swift"),
            encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "    // README snippet: generated classes"))
        let end = try #require(lines[start...].firstIndex(of: "    // README snippet end"))
        let example = lines[(start + 1)..<end].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
        let readme = try readmeSnippet().appPart
        #expect(readme.count == 10)
        #expect(example == readme)
    }
}
