/// Splits a format string into tokens (§1). Works on UTF-8 bytes; offsets are byte offsets.
struct Lexer {
    private let bytes: [UInt8]
    private var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Tokenizes the whole input; the last token is `.end`.
    static func tokenize(_ bytes: [UInt8]) throws(LexError) -> [Token] {
        var lexer = Lexer(bytes: bytes)
        var tokens: [Token] = []
        tokens.reserveCapacity(bytes.count / 3 + 2)
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    struct LexError: Error {
        var message: String
        var offset: Int
    }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        let index = position + ahead
        return index < bytes.count ? bytes[index] : nil
    }

    private static func isIdentifierStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    private static func isIdentifierPart(_ b: UInt8) -> Bool {
        isIdentifierStart(b) || isDigit(b)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private mutating func next() throws(LexError) -> Token {
        while let b = peek(), b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C {
            position += 1
        }
        let start = position
        guard let b = peek() else { return Token(kind: .end, start: start, end: start) }

        func punct(_ p: Punctuation, _ length: Int) -> Token {
            position += length
            return Token(kind: .punctuation(p), start: start, end: position)
        }
        let n = peek(1)
        switch b {
        case UInt8(ascii: "("): return punct(.openParen, 1)
        case UInt8(ascii: ")"): return punct(.closeParen, 1)
        case UInt8(ascii: "["): return punct(.openBracket, 1)
        case UInt8(ascii: "]"): return punct(.closeBracket, 1)
        case UInt8(ascii: "{"): return punct(.openBrace, 1)
        case UInt8(ascii: "}"): return punct(.closeBrace, 1)
        case UInt8(ascii: ","): return punct(.comma, 1)
        case UInt8(ascii: "."):
            if let n, Lexer.isDigit(n) {
                throw LexError(message: "a number must start with a digit (write 0.5, not .5)", offset: start)
            }
            return punct(.dot, 1)
        case UInt8(ascii: "="):
            if n == UInt8(ascii: "=") { return punct(.equal, 2) }
            if n == UInt8(ascii: "<") { return punct(.lessEqual, 2) }
            if n == UInt8(ascii: ">") { return punct(.greaterEqual, 2) }
            return punct(.equal, 1)
        case UInt8(ascii: "!"):
            if n == UInt8(ascii: "=") { return punct(.notEqual, 2) }
            return punct(.bang, 1)
        case UInt8(ascii: "<"):
            if n == UInt8(ascii: "=") { return punct(.lessEqual, 2) }
            if n == UInt8(ascii: ">") { return punct(.notEqual, 2) }
            if n == UInt8(ascii: "<") { return punct(.shiftLeft, 2) }
            return punct(.less, 1)
        case UInt8(ascii: ">"):
            if n == UInt8(ascii: "=") { return punct(.greaterEqual, 2) }
            if n == UInt8(ascii: ">") { return punct(.shiftRight, 2) }
            return punct(.greater, 1)
        case UInt8(ascii: "&"):
            if n == UInt8(ascii: "&") { return punct(.andAnd, 2) }
            return punct(.ampersand, 1)
        case UInt8(ascii: "|"):
            if n == UInt8(ascii: "|") { return punct(.orOr, 2) }
            return punct(.pipe, 1)
        case UInt8(ascii: "*"):
            if n == UInt8(ascii: "*") { return punct(.power, 2) }
            return punct(.star, 1)
        case UInt8(ascii: "+"): return punct(.plus, 1)
        case UInt8(ascii: "-"): return punct(.minus, 1)
        case UInt8(ascii: "/"): return punct(.slash, 1)
        case UInt8(ascii: "^"): return punct(.caret, 1)
        case UInt8(ascii: "~"): return punct(.tilde, 1)
        case UInt8(ascii: ":"):
            if n == UInt8(ascii: "=") { return punct(.assign, 2) }
            throw LexError(message: "unexpected ':'", offset: start)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return try lexString(quote: b)
        case UInt8(ascii: "%"):
            return try lexSpecifier()
        case UInt8(ascii: "$"):
            position += 1
            if peek() == UInt8(ascii: "#") { position += 1 }  // `$#first`: the `#` is not part of the name
            guard let c = peek(), Lexer.isIdentifierStart(c) else {
                throw LexError(message: "expected a variable name after '$'", offset: position)
            }
            let name = readIdentifier()
            return Token(kind: .variable(name), start: start, end: position)
        case UInt8(ascii: "@"):
            position += 1
            guard let c = peek(), Lexer.isIdentifierStart(c) else {
                throw LexError(message: "expected a collection operator name after '@'", offset: position)
            }
            let name = readIdentifier()
            return Token(kind: .collectionOperator(name), start: start, end: position)
        case UInt8(ascii: "#"):
            position += 1
            guard let c = peek(), Lexer.isIdentifierStart(c) else {
                throw LexError(message: "expected an identifier after '#'", offset: position)
            }
            let name = readIdentifier()
            return Token(kind: .identifier(name), start: start, end: position)
        case UInt8(ascii: "?"):
            throw LexError(message: "'?' is not valid outside a string literal", offset: start)
        default:
            break
        }
        if Lexer.isDigit(b) { return try lexNumber() }
        if Lexer.isIdentifierStart(b) { return lexWord() }
        if b >= 0x80 {
            throw LexError(message: "unexpected character; identifiers are ASCII (use %K for other key names)", offset: start)
        }
        throw LexError(message: "unexpected character '\(Character(Unicode.Scalar(b)))'", offset: start)
    }

    private mutating func readIdentifier() -> String {
        let start = position
        while let c = peek(), Lexer.isIdentifierPart(c) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func lexWord() -> Token {
        let start = position
        while let c = peek(), Lexer.isIdentifierPart(c) { position += 1 }
        let keyword = Keyword.lookup(bytes[start..<position])
        // UTI-CONFORMS-TO / UTI-EQUALS are single tokens with hyphens.
        if position - start == 3, peek() == UInt8(ascii: "-"),
            bytes[start..<position].map({ $0 & 0xDF }) == Array("UTI".utf8)
        {
            for keyword in [Keyword.utiConformsTo, .utiEquals] {
                let tail = Array(keyword.rawValue.utf8.dropFirst(3))
                if position + tail.count <= bytes.count,
                    bytes[position..<(position + tail.count)].map({ $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }) == tail,
                    !(position + tail.count < bytes.count && Lexer.isIdentifierPart(bytes[position + tail.count]))
                {
                    position += tail.count
                    return Token(kind: .keyword(keyword), start: start, end: position)
                }
            }
        }
        if let keyword {
            return Token(kind: .keyword(keyword), start: start, end: position)
        }
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        // A selector name: `sum:`, `modulus:by:`, `isKindOfClass:` (but not `x := …`).
        if peek() == UInt8(ascii: ":"), peek(1) != UInt8(ascii: "=") {
            var selector = name + ":"
            position += 1
            while let c = peek(), Lexer.isIdentifierStart(c) {
                let save = position
                let part = readIdentifier()
                if peek() == UInt8(ascii: ":"), peek(1) != UInt8(ascii: "=") {
                    position += 1
                    selector += part + ":"
                } else {
                    position = save
                    break
                }
            }
            return Token(kind: .selector(selector), start: start, end: position)
        }
        return Token(kind: .identifier(name), start: start, end: position)
    }

    private mutating func lexNumber() throws(LexError) -> Token {
        let start = position
        if peek() == UInt8(ascii: "0"), let p = peek(1) {
            let radix: Int64
            switch p {
            case UInt8(ascii: "x"), UInt8(ascii: "X"): radix = 16
            case UInt8(ascii: "o"), UInt8(ascii: "O"): radix = 8
            case UInt8(ascii: "b"), UInt8(ascii: "B"): radix = 2
            default: radix = 0
            }
            if radix != 0 {
                position += 2
                var value: Int64 = 0
                var digits = 0
                while let c = peek() {
                    let digit: Int64
                    switch c {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int64(c - 0x30)
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int64(c - 0x61 + 10)
                    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int64(c - 0x41 + 10)
                    default: digit = -1
                    }
                    if digit < 0 || digit >= radix {
                        if Lexer.isIdentifierPart(c) {
                            throw LexError(message: "invalid digit in number literal", offset: position)
                        }
                        break
                    }
                    let (m, o1) = value.multipliedReportingOverflow(by: radix)
                    let (s, o2) = m.addingReportingOverflow(digit)
                    if o1 || o2 {
                        throw LexError(message: "integer literal does not fit in a signed 64-bit integer", offset: start)
                    }
                    value = s
                    digits += 1
                    position += 1
                }
                if digits == 0 { throw LexError(message: "expected digits after the number prefix", offset: position) }
                return Token(kind: .integer(value), start: start, end: position)
            }
        }
        while let c = peek(), Lexer.isDigit(c) { position += 1 }
        var isDouble = false
        var textEnd = position
        if peek() == UInt8(ascii: "."), !(peek(1).map(Lexer.isIdentifierStart) ?? false) {
            isDouble = true
            position += 1
            textEnd = position - 1
            if let c = peek(), Lexer.isDigit(c) {
                while let c = peek(), Lexer.isDigit(c) { position += 1 }
                textEnd = position
            }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            var ahead = 1
            if let s = peek(1), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { ahead = 2 }
            if let d = peek(ahead), Lexer.isDigit(d) {
                isDouble = true
                var text = Array(bytes[start..<textEnd])
                position += ahead
                let expStart = position - ahead
                while let c = peek(), Lexer.isDigit(c) { position += 1 }
                text += bytes[expStart..<position]
                if let c = peek(), Lexer.isIdentifierPart(c) {
                    throw LexError(message: "invalid character after number literal", offset: position)
                }
                guard let value = Double(String(decoding: text, as: UTF8.self)) else {
                    throw LexError(message: "invalid number literal", offset: start)
                }
                return Token(kind: .double(value), start: start, end: position)
            }
        }
        if let c = peek(), Lexer.isIdentifierPart(c) {
            throw LexError(message: "invalid character after number literal", offset: position)
        }
        let text = String(decoding: bytes[start..<textEnd], as: UTF8.self)
        if isDouble {
            guard let value = Double(text) else { throw LexError(message: "invalid number literal", offset: start) }
            return Token(kind: .double(value), start: start, end: position)
        }
        guard let value = Int64(text) else {
            throw LexError(message: "integer literal does not fit in a signed 64-bit integer", offset: start)
        }
        return Token(kind: .integer(value), start: start, end: position)
    }

    private mutating func lexString(quote: UInt8) throws(LexError) -> Token {
        let start = position
        position += 1
        var out: [UInt8] = []
        var pendingHighSurrogate: UInt32?
        func appendScalar(_ value: UInt32) {
            var v = value
            if let high = pendingHighSurrogate {
                pendingHighSurrogate = nil
                if v >= 0xDC00 && v <= 0xDFFF {
                    v = 0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00)
                } else {
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                }
            }
            if v >= 0xD800 && v <= 0xDBFF {
                pendingHighSurrogate = v
                return
            }
            let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        func flushSurrogate() {
            if pendingHighSurrogate != nil {
                pendingHighSurrogate = nil
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
            }
        }
        while true {
            guard let c = peek() else {
                throw LexError(message: "unterminated string literal", offset: start)
            }
            if c == quote {
                position += 1
                flushSurrogate()
                break
            }
            if c != UInt8(ascii: "\\") {
                flushSurrogate()
                out.append(c)
                position += 1
                continue
            }
            position += 1
            guard let e = peek() else { throw LexError(message: "unterminated string literal", offset: start) }
            position += 1
            switch e {
            case UInt8(ascii: "a"):
                flushSurrogate()
                out.append(0x07)
            case UInt8(ascii: "b"):
                flushSurrogate()
                out.append(0x08)
            case UInt8(ascii: "f"):
                flushSurrogate()
                out.append(0x0C)
            case UInt8(ascii: "n"):
                flushSurrogate()
                out.append(0x0A)
            case UInt8(ascii: "r"):
                flushSurrogate()
                out.append(0x0D)
            case UInt8(ascii: "t"):
                flushSurrogate()
                out.append(0x09)
            case UInt8(ascii: "v"):
                flushSurrogate()
                out.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(e - 0x30)
                var count = 1
                while count < 3, let d = peek(), d >= 0x30 && d <= 0x37 {
                    value = value * 8 + UInt32(d - 0x30)
                    position += 1
                    count += 1
                }
                appendScalar(value)
            case UInt8(ascii: "x"), UInt8(ascii: "u"):
                let width = e == UInt8(ascii: "x") ? 2 : 4
                if let value = hexValue(at: position, width: width) {
                    position += width
                    appendScalar(value)
                } else {
                    flushSurrogate()
                    out.append(e)
                }
            default:
                flushSurrogate()
                out.append(e)
            }
        }
        return Token(kind: .string(String(decoding: out, as: UTF8.self)), start: start, end: position)
    }

    private func hexValue(at index: Int, width: Int) -> UInt32? {
        guard index + width <= bytes.count else { return nil }
        var value: UInt32 = 0
        for i in index..<(index + width) {
            let c = bytes[i]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - 0x41 + 10)
            default: return nil
            }
            value = value * 16 + digit
        }
        return value
    }

    private mutating func lexSpecifier() throws(LexError) -> Token {
        let start = position
        position += 1
        guard let first = peek() else { throw LexError(message: "incomplete format specifier '%'", offset: start) }
        if first == UInt8(ascii: "%") {
            throw LexError(message: "'%%' (a literal '%') is not valid outside a string literal", offset: start)
        }
        if Lexer.isDigit(first) {
            throw LexError(message: "positional format specifiers such as %1$@ are not supported", offset: start)
        }
        // Length modifiers.
        var modifierLength = 0
        while let c = peek(), [UInt8(ascii: "l"), UInt8(ascii: "h"), UInt8(ascii: "q")].contains(c), modifierLength < 2 {
            position += 1
            modifierLength += 1
        }
        guard let conversion = peek() else {
            throw LexError(message: "incomplete format specifier", offset: start)
        }
        position += 1
        let spec: FormatSpecifier
        switch conversion {
        case UInt8(ascii: "@") where modifierLength == 0: spec = .object
        case UInt8(ascii: "K") where modifierLength == 0: spec = .keyPath
        case UInt8(ascii: "d"), UInt8(ascii: "i"): spec = .signed
        case UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "o"), UInt8(ascii: "O"): spec = .unsigned
        case UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"), UInt8(ascii: "G"): spec = .floating
        case UInt8(ascii: "s"), UInt8(ascii: "S"): spec = .cString
        case UInt8(ascii: "c"), UInt8(ascii: "C"): spec = .character
        case UInt8(ascii: "k") where modifierLength == 0:
            throw LexError(message: "unknown format specifier '%k' (key paths use %K)", offset: start)
        default:
            throw LexError(message: "unknown format specifier", offset: start)
        }
        return Token(kind: .specifier(spec), start: start, end: position)
    }
}
