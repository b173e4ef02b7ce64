/// A lexical token of the format language, with its UTF-8 byte range in the source.
struct Token {
    enum Kind: Equatable {
        case identifier(String)  // plain or `#`-escaped identifier
        case keyword(Keyword)
        case collectionOperator(String)  // `@count` → "count"
        case variable(String)  // `$name` → "name"
        case selector(String)  // `modulus:by:`
        case string(String)
        case integer(Int64)
        case double(Double)
        case specifier(FormatSpecifier)
        case punctuation(Punctuation)
        case end
    }

    var kind: Kind
    var start: Int
    var end: Int
}

/// Reserved words (§1.3); matched case-insensitively.
enum Keyword: String, CaseIterable {
    case and = "AND", or = "OR", `in` = "IN", not = "NOT", all = "ALL", any = "ANY", some = "SOME"
    case none = "NONE", like = "LIKE", caseInsensitive = "CASEINSENSITIVE", ci = "CI", matches = "MATCHES"
    case contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", between = "BETWEEN"
    case null = "NULL", nil_ = "NIL", `self` = "SELF", `true` = "TRUE", yes = "YES", `false` = "FALSE"
    case no = "NO", first = "FIRST", last = "LAST", size = "SIZE", anyKey = "ANYKEY", subquery = "SUBQUERY"
    case fetch = "FETCH", cast = "CAST", truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case utiConformsTo = "UTI-CONFORMS-TO", utiEquals = "UTI-EQUALS"
    case function = "FUNCTION", ternary = "TERNARY", union = "UNION", intersect = "INTERSECT"
    case minus = "MINUS", tokenMatches = "TOKENMATCHES"

    /// Lookup by upper-cased spelling.
    static let byName: [String: Keyword] = {
        var table: [String: Keyword] = [:]
        for keyword in allCases { table[keyword.rawValue] = keyword }
        return table
    }()

    /// Keywords grouped by length, as upper-case bytes, for allocation-free lookup in the lexer.
    static let byLength: [[([UInt8], Keyword)]] = {
        var table = [[([UInt8], Keyword)]](repeating: [], count: 17)
        for keyword in allCases where keyword.rawValue.utf8.count < 17 {
            table[keyword.rawValue.utf8.count].append((Array(keyword.rawValue.utf8), keyword))
        }
        return table
    }()

    /// The keyword spelled by `bytes` in any case, if any.
    static func lookup(_ bytes: ArraySlice<UInt8>) -> Keyword? {
        guard bytes.count < byLength.count else { return nil }
        candidates: for (spelling, keyword) in byLength[bytes.count] {
            var i = bytes.startIndex
            for expected in spelling {
                var b = bytes[i]
                if b >= 0x61 && b <= 0x7A { b -= 32 }
                if b != expected { continue candidates }
                i += 1
            }
            return keyword
        }
        return nil
    }

    /// Whether `name` (any case) is a reserved word, so that the printer must escape it with `#`.
    static func isReserved(_ name: String) -> Bool {
        byName[name.uppercased()] != nil
    }
}

enum Punctuation: String {
    case openParen = "(", closeParen = ")", openBracket = "[", closeBracket = "]"
    case openBrace = "{", closeBrace = "}", comma = ",", dot = "."
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case andAnd = "&&", orOr = "||", bang = "!"
    case plus = "+", minus = "-", star = "*", slash = "/", power = "**"
    case ampersand = "&", pipe = "|", caret = "^", shiftLeft = "<<", shiftRight = ">>", tilde = "~"
    case assign = ":="
}

/// A format specifier outside quotes (§1.7).
enum FormatSpecifier: Equatable {
    case object  // %@
    case keyPath  // %K
    case signed  // %d %i %ld …
    case unsigned  // %u %x %o …
    case floating  // %f %e %g …
    case cString  // %s %S
    case character  // %c %C

    var text: String {
        switch self {
        case .object: return "%@"
        case .keyPath: return "%K"
        case .signed: return "%d"
        case .unsigned: return "%u"
        case .floating: return "%f"
        case .cString: return "%s"
        case .character: return "%c"
        }
    }
}
