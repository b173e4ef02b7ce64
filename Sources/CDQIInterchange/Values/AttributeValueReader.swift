import CDQIModel
import CDQIPredicate
import Foundation

/// Reads an attribute's value from the interchange format: the inverse of
/// ``CDQIPredicate/StoredValue/interchangeJSON``, strict about types.
enum AttributeValueReader {
    /// The stored value of `json` for `attribute`, or the reason it does not fit (a sentence naming what
    /// the attribute takes).
    static func read(_ json: JSONValue, for attribute: AttributeDescription) -> Result<StoredValue, ValueProblem> {
        if case .null = json { return .success(.null) }
        let type = attribute.type
        func wrong(_ expected: String) -> Result<StoredValue, ValueProblem> {
            .failure("\(type.rawValue) takes \(expected), not \(json.kindDescription)")
        }
        switch type {
        case .integer16, .integer32, .integer64:
            guard case .number(let text) = json else { return wrong("an integer") }
            guard let value = Int64(text) else {
                return .failure(
                    text.contains(where: { ".eE".contains($0) })
                        ? "\(type.rawValue) takes an integer, not \(text)"
                        : "\(text) does not fit \(type.rawValue)")
            }
            let range: ClosedRange<Int64> =
                switch type {
                case .integer16: Int64(Int16.min)...Int64(Int16.max)
                case .integer32: Int64(Int32.min)...Int64(Int32.max)
                default: Int64.min...Int64.max
                }
            guard range.contains(value) else {
                return .failure("\(text) does not fit \(type.rawValue) (\(range.lowerBound)…\(range.upperBound))")
            }
            return .success(.integer(value))
        case .double, .float:
            let value: Double
            switch json {
            case .number(let text):
                guard let parsed = Double(text), parsed.isFinite else { return .failure("\(text) does not fit \(type.rawValue)") }
                value = parsed
            case .string("NaN"): value = .nan
            case .string("Infinity"): value = .infinity
            case .string("-Infinity"): value = -.infinity
            default: return wrong("a number (or \"NaN\", \"Infinity\", \"-Infinity\")")
            }
            if type == .float {
                guard !value.isFinite || abs(value) <= Double(Float.greatestFiniteMagnitude) else {
                    return .failure("\(value) does not fit Float")
                }
                return .success(.double(Double(Float(value))))
            }
            return .success(.double(value))
        case .decimal:
            let text: String
            switch json {
            case .number(let number): text = number
            case .string(let string): text = string
            default: return wrong("a decimal number (a string such as \"12.50\", or a number)")
            }
            guard isDecimalNumber(text), let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                return .failure("\"\(text)\" is not a decimal number")
            }
            return .success(.decimal(value))
        case .string:
            guard case .string(let text) = json else { return wrong("a string") }
            return .success(.string(text))
        case .boolean:
            guard case .bool(let flag) = json else { return wrong("true or false") }
            return .success(.bool(flag))
        case .date:
            switch json {
            case .string(let text):
                guard let seconds = DateText.parse(text) else {
                    return .failure("\"\(text)\" is not an ISO 8601 date (write 2024-03-01T09:30:00Z, or a date with an offset)")
                }
                return .success(.date(secondsSinceReferenceDate: seconds))
            case .number(let text):
                guard let seconds = Double(text), seconds.isFinite else { return .failure("\(text) is not a date") }
                return .success(.date(secondsSinceReferenceDate: seconds))
            default: return wrong("an ISO 8601 date string")
            }
        case .binaryData, .transformable:
            guard case .string(let text) = json else { return wrong("base64 text") }
            guard let data = Data(base64Encoded: text) else { return .failure("the text is not valid base64") }
            return .success(.data(data))
        case .uuid:
            guard case .string(let text) = json else { return wrong("a UUID string") }
            guard let uuid = UUID(uuidString: text) else { return .failure("\"\(text)\" is not a UUID") }
            return .success(.uuid(uuid))
        case .uri:
            guard case .string(let text) = json else { return wrong("a URI string") }
            guard let url = URL(string: text) else { return .failure("\"\(text)\" is not a URI") }
            return .success(.uri(url))
        case .objectID:
            guard case .string(let text) = json else { return wrong("an object-ID URI string") }
            guard let reference = ObjectReference(uriString: text) else { return .failure("\"\(text)\" is not an object-ID URI") }
            return .success(.objectID(reference))
        case .undefined, .composite:
            return .failure("attributes of type \(type.rawValue) cannot be imported")
        }
    }

    /// Why a value does not fit an attribute: a sentence naming what the attribute takes.
    struct ValueProblem: Error, ExpressibleByStringInterpolation {
        var message: String

        init(stringLiteral value: String) {
            message = value
        }
    }

    /// Whether `text` is a decimal number as JSON writes numbers (an optional `-`, digits, an optional
    /// fraction and exponent); `Decimal(string:)` alone would accept "12abc" as 12.
    static func isDecimalNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, (0x30...0x39).contains(byte) {
                bytes.removeFirst()
                count += 1
            }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        guard digits() > 0 else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
