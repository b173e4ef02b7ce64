import Foundation

/// Finds the names of the classes that Swift sources under a folder declare (`class Book`,
/// `final class Book: ManagedObject`, `open class Book`), so that generation can tell an entity class the
/// target wrote from one nobody wrote. A textual scan: a class named in a comment or a string counts
/// too, which errs on the side of generating the conformance, as before.
struct DeclaredClassScanner {
    /// Every class name declared in the `.swift` files under `folder` (recursively); unreadable files
    /// and folders are skipped.
    static func classNames(under folder: URL) -> Set<String> {
        var names: Set<String> = []
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return names }
        for case let url as URL in walker where url.pathExtension == "swift" {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                let text = try? String(contentsOf: url, encoding: .utf8)
            else { continue }
            names.formUnion(classNames(in: text))
        }
        return names
    }

    /// The names following the keyword `class` in `text`.
    static func classNames(in text: String) -> Set<String> {
        var names: Set<String> = []
        let scalars = Array(text.unicodeScalars)
        func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || CharacterSet.alphanumerics.contains(scalar)
        }
        var index = 0
        while index < scalars.count {
            guard isIdentifier(scalars[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < scalars.count, isIdentifier(scalars[index]) { index += 1 }
            guard String(String.UnicodeScalarView(scalars[start..<index])) == "class" else { continue }
            var next = index
            while next < scalars.count, scalars[next] == " " || scalars[next] == "\t" || scalars[next] == "\n" { next += 1 }
            let nameStart = next
            while next < scalars.count, isIdentifier(scalars[next]) { next += 1 }
            if next > nameStart { names.insert(String(String.UnicodeScalarView(scalars[nameStart..<next]))) }
            index = next
        }
        return names
    }
}
