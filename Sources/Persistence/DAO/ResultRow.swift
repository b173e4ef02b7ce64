import CDQIPredicate
import CDQIStore
import Foundation

/// A projection row as upstream returns it: a dictionary keyed by property name or `"fn:property"`,
/// with Swift values (`Int`, `Double`, `Decimal`, `String`, `Bool`, `Date`, `Data`, `UUID`, `URL`,
/// `ManagedObjectID`) and, as a Core Data dictionary fetch, no entry for a `nil` value.
enum ResultRow {
    static func make(_ row: [String: StoredValue], in context: ManagedObjectContext) -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in row {
            if let converted = swiftValue(value, in: context) { result[key] = converted }
        }
        return result
    }

    static func swiftValue(_ value: StoredValue, in context: ManagedObjectContext) -> Any? {
        switch value {
        case .null: nil
        case .integer(let number): Int(exactly: number) ?? number
        case .double(let number): number
        case .decimal(let number): number
        case .string(let text): text
        case .bool(let flag): flag
        case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
        case .data(let data): data
        case .uuid(let uuid): uuid
        case .uri(let url): url
        case .objectID(let reference): context.objectID(for: reference) ?? reference
        }
    }
}
