import Foundation

/// A number operand: integers (and booleans) stay exact, doubles and decimals are doubles (§3.2).
enum Number {
    case integer(Int64)
    case double(Double)

    init?(_ value: StoredValue) {
        switch value {
        case .integer(let i): self = .integer(i)
        case .double(let d): self = .double(d)
        case .decimal(let d): self = .double(StoredValue.decimalAsDouble(d))
        case .bool(let b): self = .integer(b ? 1 : 0)
        default: return nil
        }
    }

    var doubleValue: Double {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        }
    }

    /// The stored value of a result; NaN becomes nil (§3.9).
    var stored: StoredValue {
        switch self {
        case .integer(let i): return .integer(i)
        case .double(let d): return d.isNaN ? .null : .double(d)
        }
    }

    /// Exact comparison, never converting an integer to `Double` first; `nil` when a NaN is involved.
    static func compare(_ a: Number, _ b: Number) -> Int? {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.double(let x), .double(let y)):
            if x.isNaN || y.isNaN { return nil }
            return x < y ? -1 : (x > y ? 1 : 0)
        case (.integer(let x), .double(let y)): return compare(x, y)
        case (.double(let x), .integer(let y)): return compare(y, x).map { -$0 }
        }
    }

    private static func compare(_ i: Int64, _ d: Double) -> Int? {
        if d.isNaN { return nil }
        if d >= 9_223_372_036_854_775_808.0 { return -1 }
        if d < -9_223_372_036_854_775_808.0 { return 1 }
        let t = d.rounded(.towardZero)
        let ti = Int64(t)
        if i < ti { return -1 }
        if i > ti { return 1 }
        let fraction = d - t
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }
}

/// Equality and ordering of values (§3.2), with the string options of §3.3.
enum ValueComparison {
    /// `==`, including the nil rule (nil equals only nil) and mixed kinds (never equal).
    static func equal(_ a: PredicateValue, _ b: PredicateValue, options: ComparisonOptions) -> Bool {
        // Fast path without building a tuple of two enums (which copies both payloads).
        if case .scalar(let x) = a {
            if case .scalar(let y) = b { return scalarEqual(x, y, options: options) }
            if case .object(let o) = b, case .objectID(let id) = x { return o.predicateObjectID == id }
            return false
        }
        switch (a, b) {
        case (.scalar(let x), .scalar(let y)):
            return scalarEqual(x, y, options: options)
        case (.object(let x), .object(let y)):
            return sameObject(x, y)
        case (.object(let x), .scalar(.objectID(let id))), (.scalar(.objectID(let id)), .object(let x)):
            return x.predicateObjectID == id
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for (p, q) in zip(x, y) where !equal(p, q, options: options) { return false }
            return true
        case (.dictionary(let x), .dictionary(let y)):
            guard x.count == y.count else { return false }
            for (key, p) in x {
                guard let q = y[key], equal(p, q, options: options) else { return false }
            }
            return true
        default:
            if isUnordered(a), isUnordered(b), let x = a.elements, let y = b.elements {
                guard x.count == y.count else { return false }
                return x.allSatisfy { p in y.contains { equal(p, $0, options: options) } }
                    && y.allSatisfy { q in x.contains { equal($0, q, options: options) } }
            }
            return false
        }
    }

    private static func isUnordered(_ v: PredicateValue) -> Bool {
        switch v {
        case .set, .toMany: return true
        default: return false
        }
    }

    static func sameObject(_ x: any KeyValueAccessible, _ y: any KeyValueAccessible) -> Bool {
        if let p = x.predicateObjectID, let q = y.predicateObjectID { return p == q }
        if type(of: x) is AnyClass, type(of: y) is AnyClass {
            return (x as AnyObject) === (y as AnyObject)
        }
        return false
    }

    static func scalarEqual(_ x: StoredValue, _ y: StoredValue, options: ComparisonOptions) -> Bool {
        switch (x, y) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.string(let p), .string(let q)): return StringMatching.equals(p, q, options: options)
        case (.date(let p), .date(let q)): return p == q
        case (.data(let p), .data(let q)): return p == q
        case (.uuid(let p), .uuid(let q)): return p == q
        case (.uri(let p), .uri(let q)): return p.absoluteString == q.absoluteString
        case (.objectID(let p), .objectID(let q)): return p == q
        default:
            guard let p = Number(x), let q = Number(y) else { return false }
            return Number.compare(p, q) == 0
        }
    }

    /// Order within one kind; `nil` when the values have no common order (mixed kinds, objects,
    /// collections, nil).
    static func order(_ a: PredicateValue, _ b: PredicateValue, options: ComparisonOptions) -> Int? {
        guard case .scalar(let x) = a, case .scalar(let y) = b else { return nil }
        return scalarOrder(x, y, options: options)
    }

    /// ``order(_:_:options:)`` of two scalars.
    static func scalarOrder(_ x: StoredValue, _ y: StoredValue, options: ComparisonOptions) -> Int? {
        switch (x, y) {
        case (.string(let p), .string(let q)): return StringMatching.compare(p, q, options: options)
        case (.date(let p), .date(let q)):
            if p.isNaN || q.isNaN { return nil }
            return p < q ? -1 : (p > q ? 1 : 0)
        case (.data(let p), .data(let q)): return bytes(Array(p), Array(q))
        case (.uuid(let p), .uuid(let q)):
            return bytes(withUnsafeBytes(of: p.uuid) { Array($0) }, withUnsafeBytes(of: q.uuid) { Array($0) })
        case (.uri(let p), .uri(let q)): return StringMatching.compare(p.absoluteString, q.absoluteString)
        default:
            guard let p = Number(x), let q = Number(y) else { return nil }
            return Number.compare(p, q)
        }
    }

    private static func bytes(_ p: [UInt8], _ q: [UInt8]) -> Int {
        for (a, b) in zip(p, q) where a != b { return a < b ? -1 : 1 }
        return p.count < q.count ? -1 : (p.count > q.count ? 1 : 0)
    }

    /// `x IN container` / `container CONTAINS x` (§3.5).
    static func isMember(_ element: PredicateValue, of container: PredicateValue, options: ComparisonOptions) -> Bool {
        if element.isNull || container.isNull { return false }
        if case .scalar(.string(let haystack)) = container {
            guard case .scalar(.string(let needle)) = element else { return false }
            return StringMatching.contains(haystack, needle, options: options)
        }
        guard let items = container.elements else { return false }
        if case .scalar(let x) = element {
            for item in items {
                if case .scalar(let y) = item {
                    if !y.isNull && scalarEqual(y, x, options: options) { return true }
                } else if equal(item, element, options: options) {
                    return true
                }
            }
            return false
        }
        for item in items where !item.isNull && equal(item, element, options: options) { return true }
        return false
    }
}
