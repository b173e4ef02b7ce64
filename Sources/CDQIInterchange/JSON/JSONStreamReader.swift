/// Reads JSON text (RFC 8259) from a ``DocumentSource`` a chunk at a time: whole values with
/// ``parseValue()``, or one level at a time (``enterObject()``, ``readKey(into:)``, ``enterArray()``,
/// ``skipValue()``), so that a document larger than memory can be walked element by element.
///
/// It holds the bytes of the value being read and the next chunk, not the document. Its rules and
/// messages are ``JSONParser``'s (which reads through it): no comments, no trailing commas, no leading
/// zeros, no lone surrogates, no control characters in strings, no key twice in one object, nesting at
/// most ``JSONParser/maximumDepth``. Errors give the line and column of the offending byte.
struct JSONStreamReader {
    private let source: DocumentSource
    /// Bytes of the document from ``bufferStart`` on.
    private var buffer: [UInt8] = []
    /// The document offset of `buffer[0]`.
    private var bufferStart = 0
    /// The index in ``buffer`` of the next byte to read.
    private var index = 0
    /// Whether the source has no bytes after the buffer's.
    private var exhausted = false
    /// The document offset of the start of the string or number being read, which must stay in the
    /// buffer until it is sliced out.
    private var pinned: Int?
    private var depth = 0

    /// How many bytes a refill asks the source for.
    private let chunkSize: Int

    /// A reader of `source` that asks it for `chunkSize` bytes at a time (at least 1).
    init(source: DocumentSource, chunkSize: Int = 1 << 16, startingAt offset: Int = 0) {
        self.source = source
        self.chunkSize = max(1, chunkSize)
        bufferStart = max(0, offset)
    }

    /// The document offset of the next byte.
    var offset: Int { bufferStart + index }

    // MARK: The document's frame

    /// Skips a UTF-8 byte order mark (allowed and ignored) and the white space before the value.
    mutating func start() {
        if peek() == 0xEF, peek(1) == 0xBB, peek(2) == 0xBF { index += 3 }
        skipWhitespace()
    }

    /// Checks that only white space follows the document's value.
    mutating func finish() throws(JSONParseError) {
        skipWhitespace()
        guard peek() == nil else { throw error("unexpected text after the document's value") }
    }

    /// The next byte (after white space the caller skipped), or `nil` at the end of the document.
    mutating func peekByte() -> UInt8? { peek() }

    // MARK: One level at a time

    /// Reads `{` and the white space after it; returns `false` (having read the `}` too) when the
    /// object is empty.
    mutating func enterObject() throws(JSONParseError) -> Bool {
        try enter()
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return false
        }
        return true
    }

    /// Reads a member's key, the `:` after it and the white space around them, refusing a key that
    /// `keys` (the object's keys so far) holds already.
    mutating func readKey(into keys: inout Set<String>) throws(JSONParseError) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a key (a string in double quotes)") }
        let keyStart = offset
        let key = try parseString()
        guard keys.insert(key).inserted else {
            throw error("the key \"\(key)\" appears twice in this object", at: keyStart)
        }
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
        index += 1
        skipWhitespace()
        return key
    }

    /// Reads what follows an object's member: `,` (returns `true`: another member follows) or `}`
    /// (returns `false`: the object is closed).
    mutating func nextMember() throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","):
            index += 1
            return true
        case UInt8(ascii: "}"):
            index += 1
            depth -= 1
            return false
        default: throw error("expected ',' or '}' in the object")
        }
    }

    /// Reads `[` and the white space after it; returns `false` (having read the `]` too) when the array
    /// is empty.
    mutating func enterArray() throws(JSONParseError) -> Bool {
        try enter()
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return false
        }
        return true
    }

    /// Reads what follows an array's element: `,` (returns `true`, with the white space before the next
    /// element read) or `]` (returns `false`: the array is closed).
    mutating func nextElement() throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            return true
        case UInt8(ascii: "]"):
            index += 1
            depth -= 1
            return false
        default: throw error("expected ',' or ']' in the array")
        }
    }

    /// Reads a value, checking it as ``parseValue()`` does, without keeping it (only an object's keys
    /// while it is read); returns its kind (`"an array"`), as ``JSONValue/kindDescription`` words it.
    mutating func skipValue() throws(JSONParseError) -> String {
        switch peek() {
        case UInt8(ascii: "{"):
            if try enterObject() {
                var keys: Set<String> = []
                repeat {
                    _ = try readKey(into: &keys)
                    _ = try skipValue()
                } while try nextMember()
            }
            return JSONValue.object([]).kindDescription
        case UInt8(ascii: "["):
            if try enterArray() {
                repeat { _ = try skipValue() } while try nextElement()
            }
            return JSONValue.array([]).kindDescription
        default:
            return try parseValue().kindDescription
        }
    }

    // MARK: Whole values

    /// Reads one value (white space before it already skipped).
    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard let byte = peek() else { throw error("unexpected end of the document; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character; expected a value")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        guard try enterObject() else { return .object(members) }
        var keys: Set<String> = []
        repeat {
            let key = try readKey(into: &keys)
            members.append((key, try parseValue()))
        } while try nextMember()
        return .object(members)
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        var values: [JSONValue] = []
        guard try enterArray() else { return .array(values) }
        repeat { values.append(try parseValue()) } while try nextElement()
        return .array(values)
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= JSONParser.maximumDepth else {
            throw error("arrays and objects are nested more than \(JSONParser.maximumDepth) deep")
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = offset
        pinned = start
        defer { pinned = nil }
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit in the number") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw error("a number cannot start with 0 followed by a digit") }
        } else {
            while let c = peek(), isDigit(c) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let c = peek(), isDigit(c) else { throw error("expected a digit after the decimal point") }
            while let c = peek(), isDigit(c) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let c = peek(), isDigit(c) else { throw error("expected a digit in the exponent") }
            while let c = peek(), isDigit(c) { index += 1 }
        }
        return String(decoding: buffer[(start - bufferStart)..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // the opening quote
        var text = ""
        var runStart = offset
        pinned = runStart
        defer { pinned = nil }
        while true {
            guard let byte = peek() else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                // Unescaped text so far must be valid UTF-8.
                guard let run = String(validating: buffer[(runStart - bufferStart)..<index], as: UTF8.self) else {
                    throw error("the string is not valid UTF-8", at: runStart)
                }
                index += 1
                if byte == UInt8(ascii: "\"") {
                    // A string without escapes (most are) is its one run.
                    if text.isEmpty { return run }
                    text += run
                    return text
                }
                text += run
                text.unicodeScalars.append(try parseEscape())
                runStart = offset
                pinned = runStart
            case 0..<0x20:
                throw error("a control character must be escaped in a string")
            default:
                index += 1
            }
        }
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard let byte = peek() else { throw error("unterminated string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let escapeStart = offset - 2
            let unit = try parseHex4()
            if (0xD800...0xDBFF).contains(unit) {
                guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                    throw error("a high surrogate (\\u\(String(unit, radix: 16))) must be followed by a low one", at: escapeStart)
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("a high surrogate must be followed by a low surrogate", at: escapeStart)
                }
                let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw error("invalid surrogate pair", at: escapeStart) }
                return scalar
            }
            guard let scalar = Unicode.Scalar(UInt32(unit)) else {
                throw error("a lone low surrogate is not a character", at: escapeStart)
            }
            return scalar
        default:
            throw error("unknown escape sequence", at: offset - 2)
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = hexValue(byte) else { throw error("expected four hexadecimal digits after \\u") }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let expected = word.withUTF8Buffer { Array($0) }
        for (ahead, byte) in expected.enumerated() where peek(ahead) != byte {
            throw error("unexpected word; expected a value (true, false and null are lowercase)")
        }
        index += expected.count
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: The buffer

    /// The byte `ahead` bytes after the next one, reading more of the document when the buffer ends
    /// before it.
    @inline(__always)
    private mutating func peek(_ ahead: Int = 0) -> UInt8? {
        if index + ahead < buffer.count { return buffer[index + ahead] }
        return refillAndPeek(ahead)
    }

    private mutating func refillAndPeek(_ ahead: Int) -> UInt8? {
        while index + ahead >= buffer.count {
            guard !exhausted else { return nil }
            // Bytes before the next one (or before a pinned string or number) are done with.
            let keep = min(offset, pinned ?? offset) - bufferStart
            if keep > 0 {
                buffer.removeSubrange(0..<keep)
                bufferStart += keep
                index -= keep
            }
            let bytes = source.read(at: bufferStart + buffer.count, count: chunkSize)
            if bytes.isEmpty { exhausted = true }
            buffer += bytes
        }
        return buffer[index + ahead]
    }

    /// An error at document offset `at` (the next byte by default), with its line and column.
    private func error(_ message: String, at position: Int? = nil) -> JSONParseError {
        let place = source.lineAndColumn(of: position ?? offset)
        return JSONParseError(message: message, line: place.line, column: place.column)
    }
}
