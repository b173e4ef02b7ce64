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

    @Test func everyConcurrencySnippetIsCompiledCode() throws {
        let compiled = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/CDQIConcurrencyTests/ReadmeConcurrencySnippets.swift"), encoding: .utf8)
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(
            readme.components(separatedBy: "\n## Concurrency\n").dropFirst().first?
                .components(separatedBy: "\n## ").first)
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/Concurrency.md"),
            encoding: .utf8)
        let blocks = swiftBlocks(section) + swiftBlocks(article)
        #expect(blocks.count >= 5)
        for block in blocks {
            #expect(compiled.contains(block), "not compiled verbatim:\n\(block)")
        }
    }

    @Test func everyLiveQuerySnippetIsCompiledCode() throws {
        let compiled = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/CDQIConcurrencyTests/DocumentedChangeSnippets.swift"), encoding: .utf8)
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/WatchingChanges.md"),
            encoding: .utf8)
        let section = try #require(
            article.components(separatedBy: "\n## Live queries\n").dropFirst().first?
                .components(separatedBy: "\n## ").first)
        let blocks = swiftBlocks(section)
        #expect(blocks.count >= 2)
        for block in blocks {
            #expect(compiled.contains(block), "not compiled verbatim:\n\(block)")
        }
    }

    @Test func theTypedBatchSnippetIsCompiledCode() throws {
        let compiled = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/CDQIConcurrencyTests/DocumentedChangeSnippets.swift"), encoding: .utf8)
        let article = try String(
            contentsOf: Self.root.appendingPathComponent("Sources/CoreDataQueryInterface/CoreDataQueryInterface.docc/BatchWrites.md"),
            encoding: .utf8)
        let section = try #require(
            article.components(separatedBy: "\n## From a typed query\n").dropFirst().first?
                .components(separatedBy: "\n## ").first)
        let blocks = swiftBlocks(section)
        #expect(blocks.count == 1)
        for block in blocks {
            #expect(compiled.contains(block), "not compiled verbatim:\n\(block)")
        }
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
