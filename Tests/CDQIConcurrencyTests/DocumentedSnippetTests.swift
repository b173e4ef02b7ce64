import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// The Swift snippets of the README's Concurrency section and of the Concurrency article are the code
/// `ReadmeConcurrencySnippets.swift` compiles (under Swift 6 strict concurrency) and
/// `ReadmeConcurrencyTests` runs: each block appears there verbatim, so the documents cannot drift from
/// code that builds.
@Suite struct DocumentedSnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The top-level declarations of the ```swift blocks of `text` (a block may hold several, which the
    /// compiled file separates with comments).
    private func swiftBlocks(_ text: String) -> [String] {
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "\n```").first }
        return blocks.flatMap { block in
            block.components(separatedBy: "\n\n").reduce(into: [String]()) { chunks, part in
                // A part that starts indented continues the declaration before it.
                if let last = chunks.last, part.hasPrefix(" ") {
                    chunks[chunks.count - 1] = last + "\n\n" + part
                } else {
                    chunks.append(part)
                }
            }
        }
    }

    /// The text of a file of the package, by its path from the package root.
    private func file(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The part of `text` under the heading `## heading`, up to the next `## ` heading.
    private func section(_ heading: String, of text: String) throws -> String {
        try #require(text.components(separatedBy: "\n## \(heading)\n").dropFirst().first?.components(separatedBy: "\n## ").first)
    }

    /// Expects each of `blocks` verbatim in the test file `compiledFile` of this folder.
    private func expectCompiled(_ blocks: [String], in compiledFile: String) throws {
        let compiled = try file("Tests/CDQIConcurrencyTests/" + compiledFile)
        for block in blocks {
            #expect(compiled.contains(block), "not compiled verbatim:\n\(block)")
        }
    }

    /// The ```swift blocks of section `heading` of the DocC article `article`.
    private func articleBlocks(_ heading: String, of article: String) throws -> [String] {
        swiftBlocks(try section(heading, of: try file("Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/" + article)))
    }

    @Test func everyConcurrencySnippetIsCompiledCode() throws {
        let blocks =
            swiftBlocks(try section("Concurrency", of: try file("README.md")))
            + swiftBlocks(try file("Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/Concurrency.md"))
        #expect(blocks.count >= 5)
        try expectCompiled(blocks, in: "ReadmeConcurrencySnippets.swift")
    }

    @Test func theScalingOutSnippetIsCompiledCode() throws {
        let blocks = swiftBlocks(try section("Scaling out with PostgreSQL", of: try file("README.md")))
        #expect(blocks.count == 2)
        try expectCompiled(blocks, in: "ScalingOutSnippets.swift")
    }

    @Test func everyLiveQuerySnippetIsCompiledCode() throws {
        let blocks = try articleBlocks("Live queries", of: "WatchingChanges.md")
        #expect(blocks.count >= 2)
        try expectCompiled(blocks, in: "DocumentedChangeSnippets.swift")
    }

    @Test func theTypedBatchSnippetIsCompiledCode() throws {
        let blocks = try articleBlocks("From a typed query", of: "BatchWrites.md")
        #expect(blocks.count == 1)
        try expectCompiled(blocks, in: "DocumentedChangeSnippets.swift")
    }

    @Test("the Batch Writes article's typed snippet, run: Engineering under 100000 is Bob; under 60000 is Eve")
    func theTypedBatchSnippetRuns() throws {
        let container = try ConcurrencyFixture.container()
        let context = container.newContext()
        let result = try yearEnd(in: context)
        #expect(result.raised == 1 && result.removed == 1)
        #expect(try context.from(Employee.self).filter { $0.firstName == "Bob" }.value { $0.salary } == 100_000)
        #expect(try context.from(Employee.self).count() == 4)
    }
}
