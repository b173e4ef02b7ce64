/// One token of Swift source, as far as the linter needs to see it: identifiers and keywords, string
/// and number literals, and single punctuation characters. Comments and whitespace are dropped.
struct SwiftToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        /// A string literal's value (escapes resolved). `isInterpolated` when it holds `\(…)`, whose value
        /// is known only at run time; `isMultiline` for `"""` literals.
        case string(String, isInterpolated: Bool, isMultiline: Bool)
        case number(String)
        case punctuation(Character)
    }

    var kind: Kind
    /// 1-based line and column (in characters) of the token's first character.
    var line: Int
    var column: Int
    /// Whether only whitespace (or comments) precede it on its line.
    var startsLine: Bool

    var identifier: String? {
        if case .identifier(let name) = kind { return name }
        return nil
    }

    func isPunctuation(_ character: Character) -> Bool { kind == .punctuation(character) }

    func isIdentifier(_ name: String) -> Bool { identifier == name }

    /// The literal's value, for string literals whose value is known.
    var literalString: String? {
        if case .string(let value, false, _) = kind { return value }
        return nil
    }
}
