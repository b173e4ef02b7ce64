import Foundation

/// A value during in-memory evaluation: a scalar, a collection, or an object that can be read by key.
public enum PredicateValue {
    /// A scalar (including nil).
    case scalar(StoredValue)
    /// An ordered collection.
    case array([PredicateValue])
    /// An unordered collection.
    case set([PredicateValue])
    /// A dictionary; `IN`/`CONTAINS` look at its values.
    case dictionary([String: PredicateValue])
    /// An object (a to-one relationship, a dictionary used as an object, …).
    case object(any KeyValueAccessible)
    /// The objects of a to-many relationship. Only ANY/ALL/NONE, the membership forms and the
    /// collection operators may use a key path through a to-many relationship (§3.7).
    case toMany([any KeyValueAccessible])

    /// nil.
    public static var null: PredicateValue { .scalar(.null) }

    /// Converts a Swift value: strings, integers of any width, floating-point numbers, `Decimal`,
    /// `Bool`, `Date`, `Data`, `UUID`, `URL`, ``StoredValue``, ``ObjectReference``, arrays, sets and
    /// `[String: Any]` dictionaries of those, and ``KeyValueAccessible`` objects. `nil` for other types.
    public init?(converting value: Any?) {
        guard let value = FormatArgument.unwrap(value) else {
            self = .null
            return
        }
        // Exact concrete types first; collection casts that must inspect every element come last.
        if let v = value as? String {
            self = .scalar(.string(v))
            return
        }
        if let v = value as? Int {
            self = .scalar(.integer(Int64(v)))
            return
        }
        if let v = value as? Double {
            self = .scalar(v.isNaN ? .null : .double(v))
            return
        }
        if let v = value as? Bool {
            self = .scalar(.bool(v))
            return
        }
        if let v = value as? PredicateValue {
            self = v
            return
        }
        if let v = value as? StoredValue {
            self = .scalar(v)
            return
        }
        if type(of: value) == [String: PredicateValue].self, let v = value as? [String: PredicateValue] {
            self = .dictionary(v)
            return
        }
        if let v = value as? [String: Any] {
            var converted: [String: PredicateValue] = [:]
            for (key, element) in v {
                guard let c = PredicateValue(converting: element) else { return nil }
                converted[key] = c
            }
            self = .dictionary(converted)
            return
        }
        if let v = value as? KeyValueAccessible {
            self = .object(v)
            return
        }
        if type(of: value) == [PredicateValue].self, let v = value as? [PredicateValue] {
            self = .array(v)
            return
        }
        if let v = value as? [Any] {
            var converted: [PredicateValue] = []
            converted.reserveCapacity(v.count)
            for element in v {
                guard let c = PredicateValue(converting: element) else { return nil }
                converted.append(c)
            }
            self = .array(converted)
            return
        }
        if let v = value as? Set<AnyHashable> {
            var converted: [PredicateValue] = []
            for element in v {
                guard let c = PredicateValue(converting: element.base) else { return nil }
                converted.append(c)
            }
            self = .set(converted)
            return
        }
        if let v = value as? ObjectReference {
            self = .scalar(.objectID(v))
            return
        }
        if let v = value as? Date {
            self = .scalar(.date(v))
            return
        }
        if let v = FormatArgument.integer(value) {
            self = .scalar(.integer(v))
            return
        }
        if value is any BinaryInteger { return nil }
        if let v = value as? Float {
            self = .scalar(v.isNaN ? .null : .double(Double(v)))
            return
        }
        if let v = value as? Decimal {
            self = .scalar(.decimal(v))
            return
        }
        if let v = value as? Data {
            self = .scalar(.data(v))
            return
        }
        if let v = value as? UUID {
            self = .scalar(.uuid(v))
            return
        }
        if let v = value as? URL {
            self = .scalar(.uri(v))
            return
        }
        if value is NSNull {
            self = .null
            return
        }
        return nil
    }

    /// `true` for nil.
    public var isNull: Bool {
        if case .scalar(.null) = self { return true }
        return false
    }

    /// The elements of a collection (array, set, to-many, dictionary values); `nil` for other values.
    var elements: [PredicateValue]? {
        switch self {
        case .array(let items), .set(let items): return items
        case .toMany(let objects): return objects.map { .object($0) }
        case .dictionary(let d): return Array(d.values)
        default: return nil
        }
    }
}
