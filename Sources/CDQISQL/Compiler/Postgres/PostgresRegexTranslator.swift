/// Translates a `MATCHES` pattern (an ICU regular expression, matched against the whole string) into a
/// PostgreSQL advanced regular expression (ARE) that accepts exactly the same strings, or refuses it.
///
/// Translated: literal characters, escaped punctuation, `\n \t \r \f`, `.` (any character but ICU's line
/// terminators), groups `( )` and `(?: )`, `|`, the quantifiers `* + ? {n} {n,} {n,m}` (m ≤ 255) and
/// their lazy forms (laziness does not change whether the whole string matches), bracket classes of
/// characters and ranges, `^` at the very start and `$` at the very end, and a leading `(?i)`.
/// `\d \D \w \W \s \S` are translated for ASCII text only: they differ from ICU's Unicode definitions
/// elsewhere, so the pattern asks `cdqi_matches` to refuse a non-ASCII subject at run time.
/// Case-insensitive matching (`[c]`, `(?i)`) runs on PostgreSQL's ASCII-only case rules (`COLLATE "C"`):
/// the pattern must be ASCII, and `cdqi_matches` refuses a subject holding a character that ICU could
/// match to an ASCII one ignoring case (``PostgresFunctions/asciiCaseRelatives``: `ß`, `ſ`, `K`, `ﬀ`, …).
///
/// Refused, with the offset of the construct (in Unicode scalars): back references, look-around,
/// atomic groups and possessive quantifiers, `\b \B \A \z \Z \G`, `\p{…}`, `\Q…\E`, `\x`, `\u`, `\N{…}`,
/// octal escapes, nested classes and class set operations, inline flags other than a leading `(?i)`,
/// named groups, and `^`/`$` anywhere else.
package enum PostgresRegexTranslator {
    package struct Translation: Equatable {
        /// The ARE, anchored at both ends.
        package var pattern: String
        /// Whether the match ignores case (`(?i)` at the start).
        package var caseInsensitive: Bool
        /// Whether the subject must be ASCII for the ARE to agree with ICU.
        package var needsASCIISubject: Bool

        package init(pattern: String, caseInsensitive: Bool, needsASCIISubject: Bool) {
            self.pattern = pattern
            self.caseInsensitive = caseInsensitive
            self.needsASCIISubject = needsASCIISubject
        }
    }

    package struct Refusal: Error, Equatable {
        package var construct: String
        package var offset: Int
    }

    /// The translation of `pattern`; `caseInsensitive` for the `[c]` option.
    package static func translate(_ pattern: String, caseInsensitive: Bool = false) -> Result<Translation, Refusal> {
        var translator = Translator(Array(pattern.unicodeScalars))
        translator.caseInsensitive = caseInsensitive
        do {
            try translator.run()
        } catch {
            return .failure(error)
        }
        return .success(
            Translation(
                pattern: "^(?:" + translator.output + ")$", caseInsensitive: translator.caseInsensitive,
                needsASCIISubject: translator.needsASCIISubject))
    }

    /// The ARE for ICU's `.`: any character but a line terminator.
    package static let anyCharacter = "[^\\n\\r\\u0085\\u2028\\u2029]"

    private struct Translator {
        let scalars: [Unicode.Scalar]
        var index = 0
        var output = ""
        var caseInsensitive = false
        var needsASCIISubject = false
        /// Whether the last thing written can take a quantifier.
        var hasAtom = false

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        func refuse(_ construct: String, at offset: Int) -> Refusal { Refusal(construct: construct, offset: offset) }

        mutating func run() throws(Refusal) {
            if peek() == "(", peek(1) == "?", peek(2) == "i", peek(3) == ")" {
                caseInsensitive = true
                index = 4
            }
            if peek() == "^" { index += 1 }
            while let c = peek() {
                let start = index
                switch c {
                case "\\":
                    try escape()
                case ".":
                    output += PostgresRegexTranslator.anyCharacter
                    index += 1
                    hasAtom = true
                case "^":
                    throw refuse("'^' after the start of the pattern", at: start)
                case "$":
                    guard index == scalars.count - 1 else { throw refuse("'$' before the end of the pattern", at: start) }
                    index += 1
                case "(":
                    if peek(1) == "?" {
                        guard peek(2) == ":" else { throw refuse("the group '(?…'", at: start) }
                        output += "(?:"
                        index += 3
                    } else {
                        output += "("
                        index += 1
                    }
                    hasAtom = false
                case ")":
                    output += ")"
                    index += 1
                    hasAtom = true
                case "|":
                    output += "|"
                    index += 1
                    hasAtom = false
                case "*", "+", "?":
                    guard hasAtom else { throw refuse("a quantifier with nothing before it", at: start) }
                    output.unicodeScalars.append(c)
                    index += 1
                    try quantifierSuffix()
                case "{":
                    guard hasAtom else { throw refuse("a quantifier with nothing before it", at: start) }
                    try interval()
                    try quantifierSuffix()
                case "[":
                    try bracket()
                default:
                    try literal(c, at: start)
                    index += 1
                    hasAtom = true
                }
            }
        }

        /// A character matched as itself.
        mutating func literal(_ c: Unicode.Scalar, at offset: Int) throws(Refusal) {
            if caseInsensitive, !c.isASCII {
                throw refuse("the non-ASCII character U+\(String(c.value, radix: 16, uppercase: true)) in a case-insensitive pattern", at: offset)
            }
            if c.isASCII, !(c.properties.isAlphabetic || ("0"..."9").contains(c) || c == " ") {
                output += "\\"
            }
            output.unicodeScalars.append(c)
        }

        /// After a quantifier: a lazy `?` is dropped; a possessive `+` or another quantifier is refused.
        mutating func quantifierSuffix() throws(Refusal) {
            if peek() == "?" { index += 1 }
            if let next = peek(), "*+?{".unicodeScalars.contains(next) {
                throw refuse("a quantifier after a quantifier (possessive or nested)", at: index)
            }
            hasAtom = false
        }

        /// `{n}`, `{n,}`, `{n,m}`.
        mutating func interval() throws(Refusal) {
            let start = index
            index += 1
            var text = "{"
            var numbers: [Int] = []
            var digits = ""
            while let c = peek(), c != "}" {
                if ("0"..."9").contains(c) {
                    digits.unicodeScalars.append(c)
                    guard digits.count <= 3 else { throw refuse("a repetition count above 255", at: start) }
                } else if c == ",", numbers.isEmpty, !digits.isEmpty {
                    numbers.append(Int(digits) ?? 0)
                    text += digits + ","
                    digits = ""
                } else {
                    throw refuse("the interval '{…'", at: start)
                }
                index += 1
            }
            guard peek() == "}", !(numbers.isEmpty && digits.isEmpty) else { throw refuse("the interval '{…'", at: start) }
            if !digits.isEmpty { numbers.append(Int(digits) ?? 0) }
            guard numbers.allSatisfy({ $0 <= 255 }) else { throw refuse("a repetition count above 255", at: start) }
            if numbers.count == 2, numbers[0] > numbers[1] { throw refuse("the interval '{…'", at: start) }
            text += digits + "}"
            index += 1
            output += text
        }

        mutating func escape() throws(Refusal) {
            let start = index
            guard let c = peek(1) else { throw refuse("a '\\' at the end", at: start) }
            index += 2
            hasAtom = true
            switch c {
            case "n", "t", "r", "f":
                output += "\\"
                output.unicodeScalars.append(c)
            case "d":
                needsASCIISubject = true
                output += "[0-9]"
            case "D":
                needsASCIISubject = true
                output += "[^0-9]"
            case "w":
                needsASCIISubject = true
                output += "[A-Za-z0-9_]"
            case "W":
                needsASCIISubject = true
                output += "[^A-Za-z0-9_]"
            case "s":
                needsASCIISubject = true
                output += "[\\t\\n\\f\\r ]"
            case "S":
                needsASCIISubject = true
                output += "[^\\t\\n\\f\\r ]"
            default:
                guard c.isASCII, !c.properties.isAlphabetic, !("0"..."9").contains(c) else {
                    throw refuse("the escape '\\\(c)'", at: start)
                }
                try literal(c, at: start)
            }
        }

        /// `[…]` / `[^…]` of characters and ranges.
        mutating func bracket() throws(Refusal) {
            let start = index
            index += 1
            output += "["
            if peek() == "^" {
                output += "^"
                index += 1
            }
            var items = 0
            while true {
                guard let c = peek() else { throw refuse("an unterminated '['", at: start) }
                let itemStart = index
                if c == "]" {
                    guard items > 0 else { throw refuse("an empty or ']'-first class", at: itemStart) }
                    index += 1
                    break
                }
                let low = try classCharacter()
                if peek() == "-", let next = peek(1), next != "]" {
                    index += 1
                    let high = try classCharacter()
                    guard low.value <= high.value else { throw refuse("the range in the class", at: itemStart) }
                    try emitClassCharacter(low, at: itemStart)
                    output += "-"
                    try emitClassCharacter(high, at: itemStart)
                } else {
                    try emitClassCharacter(low, at: itemStart)
                }
                items += 1
            }
            output += "]"
            hasAtom = true
        }

        /// One character of a class, escapes resolved.
        mutating func classCharacter() throws(Refusal) -> Unicode.Scalar {
            guard let c = peek() else { throw refuse("an unterminated '['", at: index) }
            switch c {
            case "[":
                throw refuse("a nested class or set operation", at: index)
            case "&" where peek(1) == "&", "-" where peek(1) == "-":
                throw refuse("a class set operation", at: index)
            case "\\":
                guard let e = peek(1) else { throw refuse("a '\\' at the end", at: index) }
                let mapped: Unicode.Scalar
                switch e {
                case "n": mapped = "\n"
                case "t": mapped = "\t"
                case "r": mapped = "\r"
                case "f": mapped = "\u{0C}"
                default:
                    guard e.isASCII, !e.properties.isAlphabetic, !("0"..."9").contains(e) else {
                        throw refuse("the escape '\\\(e)' in a class", at: index)
                    }
                    mapped = e
                }
                index += 2
                return mapped
            default:
                index += 1
                return c
            }
        }

        mutating func emitClassCharacter(_ c: Unicode.Scalar, at offset: Int) throws(Refusal) {
            if caseInsensitive, !c.isASCII {
                throw refuse("the non-ASCII character U+\(String(c.value, radix: 16, uppercase: true)) in a case-insensitive pattern", at: offset)
            }
            switch c {
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            case "\u{0C}": output += "\\f"
            case "]", "\\", "^", "-", "[":
                output += "\\"
                output.unicodeScalars.append(c)
            default: output.unicodeScalars.append(c)
            }
        }
    }
}
