import CDQIStore

/// What supplies criteria with their base fetch request (a ``DAO``: the request for its entity).
public protocol CDQueryTransformInterceptor: AnyObject {
    /// Called before the request is made, with the criteria asking for it.
    func beforeCreateFetchRequest(_ criteria: any CDCriteria)
    /// The base request the criteria complete; `nil` for none.
    func createFetchRequest() -> FetchRequest?
}
