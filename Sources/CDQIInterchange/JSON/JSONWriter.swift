/// Writes ``JSONValue``s as JSON text.
///
/// Output is valid RFC 8259 JSON in UTF-8: keys keep their order, strings escape `"`, `\` and control
/// characters (and nothing else), numbers are written as the text they hold.
public enum JSONWriter {
    /// The value on one line, with a space after each `:` and `,`: `{"_id": "e1", "tags": [1, 2]}`.
    public static func compact(_ value: JSONValue) -> String {
        var output = ""
        write(value, into: &output)
        return output
    }

    /// An array with one element per line, indented two spaces; `[]` when empty. No final newline.
    public static func arrayOfLines(_ elements: [JSONValue], indent: String = "") -> String {
        guard !elements.isEmpty else { return "[]" }
        let inner = indent + "  "
        return "[\n" + elements.map { inner + compact($0) }.joined(separator: ",\n") + "\n\(indent)]"
    }

    /// A JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var output = ""
        writeString(text, into: &output)
        return output
    }

    private static func write(_ value: JSONValue, into output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): writeString(text, into: &output)
        case .array(let values):
            output += "["
            for (index, element) in values.enumerated() {
                if index > 0 { output += ", " }
                write(element, into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += ", " }
                writeString(member.key, into: &output)
                output += ": "
                write(member.value, into: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
