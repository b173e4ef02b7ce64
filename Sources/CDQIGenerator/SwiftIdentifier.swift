/// Swift identifier rules the generator needs: validity, keywords and escaping.
enum SwiftIdentifier {
    /// Words that need backticks to be used as a declaration's name. Backticks around a word that
    /// does not need them are harmless, so the list errs on the side of too many.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch",
        "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self",
        "Self", "super", "throws", "true", "try", "Type", "Protocol", "some", "any",
    ]

    /// Names that cannot name a class even with backticks.
    static let impossibleTypeNames: Set<String> = ["Any", "Self", "Type", "Protocol", "_"]

    /// Whether `character` may appear after the first character of an identifier.
    static func isIdentifierCharacter(_ character: Character) -> Bool {
        character == "_" || character.isLetter || (character.isNumber && character.isWholeNumber)
    }

    /// Whether `name` is a valid identifier once escaped with backticks where needed.
    static func isValid(_ name: String) -> Bool {
        guard let first = name.first, name != "_" else { return false }
        guard first == "_" || first.isLetter else { return false }
        return name.allSatisfy(isIdentifierCharacter)
    }

    /// `name`, in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The nearest valid identifier: every character that cannot appear becomes `_`, and a name that
    /// starts with a digit gets a leading `_`.
    static func sanitized(_ name: String) -> String {
        var result = String(name.map { isIdentifierCharacter($0) ? $0 : "_" })
        if let first = result.first, !(first == "_" || first.isLetter) { result = "_" + result }
        if result.isEmpty || result == "_" { result = "_unnamed" }
        return result
    }
}
