import CDQIPredicate
import CDQIStore

/// `sum:` projections with a Date result (the seed text's `[CDFunction sum:@"timeStamp"
/// resultType:NSDateAttributeType]`): the store's `sum:` takes numbers only, so the dates are summed
/// as their seconds since the reference date (`CAST(timeStamp, "NSNumber")`, what Core Data stores)
/// and the sum is read back as a Date.
enum DateSumProjection {
    /// The request with each date-typed `sum:(keyPath)` column summing the key path's seconds.
    static func rewrite(_ request: FetchRequest) -> FetchRequest {
        var storeRequest = request
        storeRequest.propertiesToFetch = request.propertiesToFetch.map { property in
            guard case .expression(var description) = property, description.resultType == .date,
                case .function(.sum, let arguments) = description.expression.kind, arguments.count == 1,
                case .keyPath = arguments[0].kind
            else { return property }
            description.expression = .function(.sum, [ExpressionNode(kind: .cast(arguments[0], type: "NSNumber"))])
            return .expression(description)
        }
        return storeRequest
    }
}
