import Foundation
import Synchronization

/// The `MATCHES` operator (§3.4): an ICU regular expression that must match the entire string.
/// Patterns are compiled once and cached.
public enum RegexMatcher {
    /// Whether the whole `string` matches `pattern`. `[c]` makes the match case-insensitive, `[d]` folds
    /// both sides first, `[n]` turns both off. An empty or invalid pattern never matches.
    public static func matches(_ string: String, pattern: String, options: ComparisonOptions = []) -> Bool {
        let folding = options.effectiveFolding
        if pattern.isEmpty { return false }
        var subject = string
        var source = pattern
        if folding.contains(.diacriticInsensitive) {
            subject = StringFolding.fold(string, options: .diacriticInsensitive)
            source = StringFolding.fold(pattern, options: .diacriticInsensitive)
        }
        guard let regex = compiled(source, caseInsensitive: folding.contains(.caseInsensitive)) else { return false }
        let range = NSRange(location: 0, length: subject.utf16.count)
        return regex.expression.firstMatch(in: subject, options: [], range: range) != nil
    }

    /// `nil` if the pattern compiles, else a description of the problem.
    ///
    /// Goes through the cache: swift-corelibs-foundation leaks about 550 bytes each time
    /// `NSRegularExpression(pattern:)` rejects a pattern (found by fuzzing), so each distinct invalid
    /// pattern is compiled only once while it stays in the cache.
    public static func validate(pattern: String, caseInsensitive: Bool) -> String? {
        if compiled(pattern, caseInsensitive: caseInsensitive) != nil { return nil }
        return "'\(pattern)' is not a valid ICU regular expression"
    }

    private static func wrap(_ pattern: String) -> String { "\\A(?:" + pattern + ")\\z" }

    private struct Key: Hashable {
        var pattern: String
        var caseInsensitive: Bool
    }

    /// NSRegularExpression is immutable and documented as thread-safe.
    private final class Box: @unchecked Sendable {
        let expression: NSRegularExpression
        init(_ expression: NSRegularExpression) { self.expression = expression }
    }

    private static let cache = Mutex<[Key: Box?]>([:])
    private static let cacheLimit = 512

    private static func compiled(_ pattern: String, caseInsensitive: Bool) -> Box? {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let box =
            (try? NSRegularExpression(
                pattern: wrap(pattern),
                options: caseInsensitive ? [.caseInsensitive] : [])).map(Box.init)
        cache.withLock { table in
            if table.count >= cacheLimit { table.removeAll(keepingCapacity: true) }
            table[key] = .some(box)
        }
        return box
    }
}
