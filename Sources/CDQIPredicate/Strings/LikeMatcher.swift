import Foundation

/// The `LIKE` operator (§3.4): the whole string must match the pattern; `*` matches any run of
/// characters, `?` exactly one (a Unicode scalar after NFC); `\*`, `\?` and `\\` are literal; any other
/// backslash is itself literal.
public enum LikeMatcher {
    private enum Element: Equatable {
        case literal(UInt32)
        case one
        case many
    }

    /// Whether `string` matches `pattern` under the options (`[c]`, `[d]` fold both sides first).
    public static func matches(_ string: String, pattern: String, options: ComparisonOptions = []) -> Bool {
        let s = scalars(StringFolding.fold(string, options: options))
        let p = compile(scalars(StringFolding.fold(pattern, options: options)))
        return match(s, p)
    }

    private static func scalars(_ string: String) -> [UInt32] {
        var isASCII = true
        for b in string.utf8 where b >= 0x80 {
            isASCII = false
            break
        }
        if isASCII { return string.utf8.map { UInt32($0) } }
        return string.precomposedStringWithCanonicalMapping.unicodeScalars.map { $0.value }
    }

    private static func compile(_ pattern: [UInt32]) -> [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(pattern.count)
        var i = 0
        while i < pattern.count {
            let c = pattern[i]
            switch c {
            case 0x2A:  // *
                if elements.last != .many { elements.append(.many) }
            case 0x3F:  // ?
                elements.append(.one)
            case 0x5C:  // backslash
                if i + 1 < pattern.count, [0x2A, 0x3F, 0x5C].contains(pattern[i + 1]) {
                    elements.append(.literal(pattern[i + 1]))
                    i += 1
                } else {
                    elements.append(.literal(c))
                }
            default:
                elements.append(.literal(c))
            }
            i += 1
        }
        return elements
    }

    /// Greedy matching with backtracking to the last `*` (linear in practice, O(n·m) worst case).
    private static func match(_ s: [UInt32], _ p: [Element]) -> Bool {
        var si = 0, pi = 0
        var starPattern = -1, starString = 0
        while si < s.count {
            if pi < p.count {
                switch p[pi] {
                case .many:
                    starPattern = pi
                    starString = si
                    pi += 1
                    continue
                case .one:
                    si += 1
                    pi += 1
                    continue
                case .literal(let c) where c == s[si]:
                    si += 1
                    pi += 1
                    continue
                default:
                    break
                }
            }
            if starPattern >= 0 {
                pi = starPattern + 1
                starString += 1
                si = starString
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == .many { pi += 1 }
        return pi == p.count
    }
}
