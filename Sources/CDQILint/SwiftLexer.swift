/// Splits Swift source into ``SwiftToken``s: enough of Swift's lexical grammar to find string literals
/// (plain, multi-line, raw, with escapes and interpolations) and the calls around them, skipping
/// comments (nested block comments too). It never fails: text it does not understand becomes
/// punctuation, and an unterminated literal or comment ends at the end of the file.
struct SwiftLexer {
    private let characters: [Character]
    private var index = 0
    private var line = 1
    private var column = 1
    private var lineHasToken = false

    init(_ source: String) {
        characters = Array(source)
    }

    /// All tokens of the source.
    static func tokens(of source: String) -> [SwiftToken] {
        var lexer = SwiftLexer(source)
        var tokens: [SwiftToken] = []
        while let token = lexer.next() { tokens.append(token) }
        return tokens
    }

    private func peek(_ offset: Int = 0) -> Character? {
        let position = index + offset
        return position < characters.count ? characters[position] : nil
    }

    private mutating func advance() {
        guard index < characters.count else { return }
        if characters[index] == "\n" {
            line += 1
            column = 1
            lineHasToken = false
        } else {
            column += 1
        }
        index += 1
    }

    private mutating func advance(_ count: Int) {
        for _ in 0..<count { advance() }
    }

    private static func isIdentifierStart(_ character: Character) -> Bool {
        character == "_" || character.isLetter
    }

    private static func isIdentifierPart(_ character: Character) -> Bool {
        character == "_" || character.isLetter || character.isNumber
    }

    mutating func next() -> SwiftToken? {
        skipTrivia()
        guard let first = peek() else { return nil }
        let startLine = line, startColumn = column, startsLine = !lineHasToken
        lineHasToken = true
        func token(_ kind: SwiftToken.Kind) -> SwiftToken {
            SwiftToken(kind: kind, line: startLine, column: startColumn, startsLine: startsLine)
        }
        if first == "#" || first == "\"" {
            var hashes = 0
            while peek(hashes) == "#" { hashes += 1 }
            if peek(hashes) == "\"" {
                advance(hashes)
                return token(stringLiteral(hashes: hashes))
            }
        }
        if first == "`" {
            advance()
            var name = ""
            while let character = peek(), character != "`", character != "\n" {
                name.append(character)
                advance()
            }
            if peek() == "`" { advance() }
            return token(.identifier(name))
        }
        if Self.isIdentifierStart(first) || first == "$" {
            var name = ""
            while let character = peek(), Self.isIdentifierPart(character) || (name.isEmpty && character == "$") {
                name.append(character)
                advance()
            }
            return token(.identifier(name))
        }
        if first.isNumber {
            var text = ""
            while let character = peek(),
                character.isNumber || character.isLetter || character == "_"
                    || (character == "." && peek(1)?.isNumber == true)
            {
                text.append(character)
                advance()
            }
            return token(.number(text))
        }
        advance()
        return token(.punctuation(first))
    }

    /// Whitespace and comments.
    private mutating func skipTrivia() {
        while let character = peek() {
            if character.isWhitespace {
                advance()
            } else if character == "/", peek(1) == "/" {
                while let next = peek(), next != "\n" {
                    _ = next
                    advance()
                }
            } else if character == "/", peek(1) == "*" {
                advance(2)
                var depth = 1
                while depth > 0, let next = peek() {
                    if next == "/", peek(1) == "*" {
                        depth += 1
                        advance(2)
                    } else if next == "*", peek(1) == "/" {
                        depth -= 1
                        advance(2)
                    } else {
                        advance()
                    }
                }
            } else {
                return
            }
        }
    }

    /// A string literal starting at its opening quote (after `hashes` `#`s).
    private mutating func stringLiteral(hashes: Int) -> SwiftToken.Kind {
        let isMultiline = peek() == "\"" && peek(1) == "\"" && peek(2) == "\""
        advance(isMultiline ? 3 : 1)
        var value = ""
        var isInterpolated = false
        func closes(at offset: Int) -> Bool {
            let quotes = isMultiline ? 3 : 1
            for quote in 0..<quotes where peek(offset + quote) != "\"" { return false }
            for hash in 0..<hashes where peek(offset + quotes + hash) != "#" { return false }
            return true
        }
        while let character = peek() {
            if closes(at: 0) {
                advance((isMultiline ? 3 : 1) + hashes)
                break
            }
            if character == "\n", !isMultiline { break }
            if character == "\\", (0..<hashes).allSatisfy({ peek(1 + $0) == "#" }) {
                advance(1 + hashes)
                guard let escaped = peek() else { break }
                advance()
                switch escaped {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                case "0": value.append("\0")
                case "\\", "\"", "'": value.append(escaped)
                case "u":
                    var digits = ""
                    if peek() == "{" {
                        advance()
                        while let digit = peek(), digit != "}", digit != "\n" {
                            digits.append(digit)
                            advance()
                        }
                        if peek() == "}" { advance() }
                    }
                    if let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) {
                        value.unicodeScalars.append(scalar)
                    }
                case "(":
                    isInterpolated = true
                    var depth = 1
                    while depth > 0, let next = peek() {
                        if next == "(" { depth += 1 } else if next == ")" { depth -= 1 }
                        advance()
                    }
                case "\n":
                    break  // a line continuation in a multi-line literal
                default:
                    value.append(escaped)
                }
                continue
            }
            value.append(character)
            advance()
        }
        if isMultiline { value = Self.strippingMultilineIndentation(value) }
        return .string(value, isInterpolated: isInterpolated, isMultiline: isMultiline)
    }

    /// A multi-line literal's content without its first newline and the closing line's indentation.
    private static func strippingMultilineIndentation(_ raw: String) -> String {
        var lines = raw.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.first?.allSatisfy({ $0 == " " || $0 == "\t" }) == true { lines.removeFirst() }
        let closing = lines.last ?? ""
        let indentation = closing.allSatisfy { $0 == " " || $0 == "\t" } ? closing.count : 0
        if indentation > 0 || closing.isEmpty { lines.removeLast() }
        return lines.map { line in
            line.prefix(indentation).allSatisfy { $0 == " " || $0 == "\t" } ? String(line.dropFirst(indentation)) : line
        }.joined(separator: "\n")
    }
}
