import CDQIPredicate
import Foundation

/// How `cdqi query` prints a ``ResultTable``.
public enum ResultFormat: String, Sendable, CaseIterable {
    /// Aligned columns under a header and a rule of dashes; no value is shown as `NULL`; line breaks
    /// and tabs in values are shown as `\n`, `\r` and `\t` so that each row stays on one line.
    case table
    /// An array of objects, one per line, keyed by column name; values as in the interchange format.
    case json
    /// RFC 4180: a header line, then one line per row, CRLF line ends, fields with a comma, quote or line
    /// break in double quotes (quotes doubled); no value is an empty field.
    case csv

    /// The table as text in this format, ending with a line break.
    public func render(_ table: ResultTable) -> String {
        switch self {
        case .table: return Self.renderTable(table)
        case .json: return Self.renderJSON(table)
        case .csv: return Self.renderCSV(table)
        }
    }

    private static func renderTable(_ table: ResultTable) -> String {
        let cells = table.rows.map { row in
            row.map { value in value.interchangeText.map(escapeForTable) ?? "NULL" }
        }
        var widths = table.columns.map(\.count)
        for row in cells {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ fields: [String]) -> String {
            var text = ""
            for (index, field) in fields.enumerated() {
                if index > 0 { text += "  " }
                let width = index < widths.count ? widths[index] : field.count
                text += field + String(repeating: " ", count: max(0, width - field.count))
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text + "\n"
        }
        var output = line(table.columns)
        output += line(widths.map { String(repeating: "-", count: $0) })
        for row in cells { output += line(row) }
        return output
    }

    private static func escapeForTable(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" }) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func renderJSON(_ table: ResultTable) -> String {
        let objects = table.rows.map { row in
            JSONValue.object(zip(table.columns, row).map { ($0, $1.interchangeJSON) })
        }
        return JSONWriter.arrayOfLines(objects) + "\n"
    }

    private static func renderCSV(_ table: ResultTable) -> String {
        var output = table.columns.map(csvField).joined(separator: ",") + "\r\n"
        for row in table.rows {
            output += row.map { csvField($0.interchangeText ?? "") }.joined(separator: ",") + "\r\n"
        }
        return output
    }

    private static func csvField(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
