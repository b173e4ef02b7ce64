import Foundation
import Synchronization

/// The string folding behind the `[c]`, `[d]` and `[n]` options (§3.3), shared by the in-memory
/// evaluator and the SQLite functions of the store so that both back ends fold identically.
public enum StringFolding {
    /// Folds a string: `[c]` case and width folding, `[d]` removal of diacritics (then NFC);
    /// `[n]` or no option returns the string unchanged; `[l]` is ignored.
    public static func fold(_ string: String, options: ComparisonOptions) -> String {
        let folding = options.effectiveFolding
        if folding.isEmpty { return string }
        var isASCII = true
        var hasUpper = false
        for b in string.utf8 {
            if b >= 0x80 {
                isASCII = false
                break
            }
            if b >= 0x41 && b <= 0x5A { hasUpper = true }
        }
        if isASCII {
            // ASCII has no diacritics or width variants; only case matters.
            guard folding.contains(.caseInsensitive), hasUpper else { return string }
            let utf8 = string.utf8
            return String(unsafeUninitializedCapacity: utf8.count) { buffer in
                var i = 0
                for b in utf8 {
                    buffer[i] = b >= 0x41 && b <= 0x5A ? b + 32 : b
                    i += 1
                }
                return i
            }
        }
        // Foundation's folding costs microseconds; short strings (constants above all) are cached.
        let cacheable = string.utf8.count <= 64
        let key = CacheKey(string: string, folding: folding.rawValue)
        if cacheable, let hit = cache.withLock({ $0[key] }) { return hit }
        let folded = foundationFold(string, folding: folding)
        if cacheable {
            cache.withLock { table in
                if table.count >= 1024 { table.removeAll(keepingCapacity: true) }
                table[key] = folded
            }
        }
        return folded
    }

    /// Hashes and compares the UTF-8 bytes: `String`'s own hashing normalizes non-ASCII text, which
    /// would cost as much as the folding it saves.
    private struct CacheKey: Hashable {
        var string: String
        var folding: Int

        static func == (a: CacheKey, b: CacheKey) -> Bool {
            a.folding == b.folding && UTF8Bytes.equal(a.string, b.string)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(folding)
            var copy = string
            copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    private static let cache = Mutex<[CacheKey: String]>([:])

    private static func foundationFold(_ string: String, folding: ComparisonOptions) -> String {
        var compareOptions: String.CompareOptions = []
        if folding.contains(.caseInsensitive) { compareOptions.formUnion([.caseInsensitive, .widthInsensitive]) }
        if folding.contains(.diacriticInsensitive) { compareOptions.insert(.diacriticInsensitive) }
        let folded = string.folding(options: compareOptions, locale: nil)
        return folding.contains(.diacriticInsensitive) ? folded.precomposedStringWithCanonicalMapping : folded
    }

    /// The options as the flag text the SQL layer passes to its functions (`"cd"`), and back.
    public static func options(fromFlags flags: String) -> ComparisonOptions {
        var options: ComparisonOptions = []
        for c in flags {
            switch c {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            case "n", "N": options.insert(.normalized)
            case "l", "L": options.insert(.localeSensitive)
            default: break
            }
        }
        return options
    }
}

/// The substring operators and code-point comparisons on folded strings (§3.2, §3.4).
public enum StringMatching {
    /// `BEGINSWITH`: prefix test on Unicode scalars after folding; an empty prefix never matches.
    public static func beginsWith(_ string: String, _ prefix: String, options: ComparisonOptions = []) -> Bool {
        let s = StringFolding.fold(string, options: options)
        let p = StringFolding.fold(prefix, options: options)
        if p.utf8.isEmpty { return false }
        return UTF8Bytes.hasPrefix(s, p)
    }

    /// `ENDSWITH`: suffix test on Unicode scalars after folding; an empty suffix never matches.
    public static func endsWith(_ string: String, _ suffix: String, options: ComparisonOptions = []) -> Bool {
        let s = StringFolding.fold(string, options: options)
        let p = StringFolding.fold(suffix, options: options)
        if p.utf8.isEmpty { return false }
        return s.utf8.reversed().starts(with: p.utf8.reversed())
    }

    /// `CONTAINS` / `IN` on strings: substring test after folding; an empty needle never matches.
    public static func contains(_ string: String, _ needle: String, options: ComparisonOptions = []) -> Bool {
        let s = Array(StringFolding.fold(string, options: options).utf8)
        let n = Array(StringFolding.fold(needle, options: options).utf8)
        if n.isEmpty || n.count > s.count { return false }
        let first = n[0]
        var i = 0
        let last = s.count - n.count
        while i <= last {
            if s[i] == first {
                var j = 1
                while j < n.count && s[i + j] == n[j] { j += 1 }
                if j == n.count { return true }
            }
            i += 1
        }
        return false
    }

    /// Equality of two strings by code points after folding (never canonical equivalence).
    public static func equals(_ a: String, _ b: String, options: ComparisonOptions = []) -> Bool {
        if options.effectiveFolding.isEmpty { return UTF8Bytes.equal(a, b) }
        return UTF8Bytes.equal(StringFolding.fold(a, options: options), StringFolding.fold(b, options: options))
    }

    /// Code-point order of two strings after folding: negative, zero or positive.
    public static func compare(_ a: String, _ b: String, options: ComparisonOptions = []) -> Int {
        let x = options.effectiveFolding.isEmpty ? a : StringFolding.fold(a, options: options)
        let y = options.effectiveFolding.isEmpty ? b : StringFolding.fold(b, options: options)
        // UTF-8 byte order is code-point order.
        return UTF8Bytes.compare(x, y)
    }
}
