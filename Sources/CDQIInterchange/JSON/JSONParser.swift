/// Parses JSON text (RFC 8259) into a ``JSONValue``.
///
/// Strict: no comments, no trailing commas, no leading zeros, no lone surrogates, no control characters
/// in strings, and no key twice in one object (a second value would silently win elsewhere). Nesting is
/// limited so that a hostile document cannot exhaust the stack. An import reads its document with the
/// same rules a record at a time (``JSONStreamReader``), never whole.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 256

    /// Parses a whole document: one value, with only white space around it.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var reader = JSONStreamReader(source: BytesDocumentSource(bytes))
        reader.start()
        let value = try reader.parseValue()
        try reader.finish()
        return value
    }

    /// Parses a whole document given as a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}
