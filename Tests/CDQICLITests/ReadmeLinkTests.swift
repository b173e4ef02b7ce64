import Foundation
import Testing

/// The README's links work in a user's clone: every relative link names a file of the package (none points
/// outside it, as into `../shared`, which users do not have).
@Suite struct ReadmeLinkTests {
    @Test func everyRelativeLinkResolvesInsideThePackage() throws {
        let root = CommandRunner.packageRoot
        for document in ["README.md", "CONTRIBUTING.md", "Benchmarks/README.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            let folder = root.appendingPathComponent(document).deletingLastPathComponent()
            var links: [String] = []
            var rest = Substring(text)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                links.append(String(after[..<close]))
                rest = after[close...]
            }
            for link in links where !link.hasPrefix("http") && !link.hasPrefix("#") {
                let path = String(link.split(separator: "#", maxSplits: 1).first ?? "")
                let target = folder.appendingPathComponent(path).standardizedFileURL
                #expect(
                    !path.hasPrefix("../") || target.path.hasPrefix(root.standardizedFileURL.path + "/"),
                    "\(document): '\(link)' leaves the package")
                #expect(FileManager.default.fileExists(atPath: target.path), "\(document): '\(link)' does not exist")
            }
        }
    }
}
