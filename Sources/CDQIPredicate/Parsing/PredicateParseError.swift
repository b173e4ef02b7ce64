/// A format string that cannot be parsed: the message, where it happened, and the source, rendered like
/// a compiler diagnostic:
///
/// ```
/// error: expected an expression after 'BEGINSWITH'
///  --> salary > 5 AND name BEGINSWITH
///                                    ^
/// ```
public struct PredicateParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// The format string.
    public let source: String
    /// The byte offset in the UTF-8 form of ``source``.
    public let utf8Offset: Int

    /// Creates an error.
    public init(message: String, source: String, utf8Offset: Int) {
        self.message = message
        self.source = source
        self.utf8Offset = max(0, min(utf8Offset, source.utf8.count))
    }

    /// The offset in characters (extended grapheme clusters) from the start of ``source``.
    public var characterOffset: Int {
        String(decoding: source.utf8.prefix(utf8Offset), as: UTF8.self).count
    }

    /// The diagnostic: message, the line of the source holding the offset, and a caret under it.
    public var description: String {
        let utf8 = Array(source.utf8)
        var lineStart = utf8Offset
        while lineStart > 0, utf8[lineStart - 1] != 0x0A { lineStart -= 1 }
        var lineEnd = utf8Offset
        while lineEnd < utf8.count, utf8[lineEnd] != 0x0A { lineEnd += 1 }
        let line = String(decoding: utf8[lineStart..<lineEnd], as: UTF8.self)
        let before = String(decoding: utf8[lineStart..<utf8Offset], as: UTF8.self)
        let column = before.count
        return "error: \(message)\n --> \(line)\n" + String(repeating: " ", count: column + 5) + "^"
    }
}
