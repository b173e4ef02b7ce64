import CDQIPredicate
import CDQIStore

/// `lower:` projections (`lowercase:(property)`), which the store's SQL does not compute: the store
/// fetches the property under the projection's key, and the value is lowercased here (Unicode-aware,
/// as the predicate language's `lowercase:`).
enum LowercaseProjection {
    /// The request with each `lowercase:(keyPath)` column replaced by its key path, and the keys of
    /// the replaced columns.
    static func split(_ request: FetchRequest) -> (FetchRequest, Set<String>) {
        var keys: Set<String> = []
        var storeRequest = request
        storeRequest.propertiesToFetch = request.propertiesToFetch.map { property in
            guard case .expression(var description) = property,
                case .function(.lowercase, let arguments) = description.expression.kind, arguments.count == 1
            else { return property }
            keys.insert(description.name)
            description.expression = arguments[0]
            return .expression(description)
        }
        return (storeRequest, keys)
    }

    /// `row` with the string values under `keys` lowercased.
    static func apply(_ keys: Set<String>, to row: [String: Any]) -> [String: Any] {
        guard !keys.isEmpty else { return row }
        var result = row
        for key in keys {
            if let text = result[key] as? String { result[key] = text.lowercased() }
        }
        return result
    }
}
