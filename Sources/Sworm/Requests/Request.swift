import CDQIPredicate
import CDQIStore

extension ManagedObjectConvertible {
    /// A request for every object of the type's entity; narrow it with `where`, `sort`, `limit` and
    /// `offset`.
    public static var all: Request<Self> { Request() }
}

/// A fetch request for the objects of a ``ManagedObjectConvertible`` type; a value: each call returns
/// a new request.
///
/// ```swift
/// Book.all.where(\Book.year > 2000).sort(\.year).sort(\.name, ascending: false).limit(10).offset(20)
/// ```
/// `where` **replaces** the predicate (as upstream Sworm does: combine predicates with `&&`), `sort`
/// **appends** a sort key, `limit` and `offset` replace theirs. Problems (a raw string that does not
/// parse, a key path the type does not map) are thrown by the context call that runs the request.
public struct Request<PlainObject: ManagedObjectConvertible>: Sendable {
    /// One sort key: an attribute name and its direction, or the key path the type does not map.
    private struct SortKey: Sendable {
        let name: Result<String, RequestError>
        let ascending: Bool
    }

    private var fetchLimit: Int?
    private var fetchOffset: Int?
    /// The predicate, or why there is none.
    private var predicate: Result<PredicateNode, RequestError>?
    private var sortKeys: [SortKey] = []

    init() {}

    /// The same request returning at most `value` objects.
    public func limit(_ value: Int) -> Request {
        var request = self
        request.fetchLimit = value
        return request
    }

    /// The same request skipping the first `value` objects.
    public func offset(_ value: Int) -> Request {
        var request = self
        request.fetchOffset = value
        return request
    }

    /// The same request filtered by a predicate-language string (`%@` for each argument), replacing
    /// any predicate set before.
    public func `where`(raw query: String, _ args: Any...) -> Request {
        var request = self
        request.predicate = Self.parse(PredicateDescriptor(query: query, args: args))
        return request
    }

    /// The same request filtered by a predicate, replacing any predicate set before.
    public func `where`(_ predicate: any Predicate) -> Request {
        var request = self
        request.predicate = Self.parse(predicate.predicateDescriptor)
        return request
    }

    /// The same request with one more sort key (the attribute's primitive must be `Comparable`).
    public func sort<A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A>, ascending: Bool = true
    ) -> Request where A.PrimitiveAttributeType: Comparable {
        appendingSortKey(keyPath, ascending: ascending)
    }

    /// The same request with one more sort key on an optional attribute.
    public func sort<A: SupportedAttributeType>(
        _ keyPath: KeyPath<PlainObject, A?>, ascending: Bool = true
    ) -> Request where A.PrimitiveAttributeType: Comparable {
        appendingSortKey(keyPath, ascending: ascending)
    }

    private func appendingSortKey(_ keyPath: AnyKeyPath, ascending: Bool) -> Request {
        var request = self
        let name = Result { () throws(RequestError) in try PlainObject.attributeName(for: keyPath) }
        request.sortKeys.append(SortKey(name: name, ascending: ascending))
        return request
    }

    private static func parse(_ descriptor: PredicateDescriptor) -> Result<PredicateNode, RequestError> {
        if let problem = descriptor.problem { return .failure(problem) }
        do {
            return .success(try PredicateNode(format: descriptor.query, argumentArray: descriptor.args))
        } catch {
            return .failure(.invalidPredicate(query: descriptor.query, error))
        }
    }

    /// The store's fetch request for this request.
    /// - Throws: the request's ``RequestError``.
    @usableFromInline
    func fetchRequest() throws(RequestError) -> FetchRequest {
        var request = FetchRequest(entityName: PlainObject.entityName)
        if let fetchLimit { request.fetchLimit = max(fetchLimit, 0) }
        if let fetchOffset { request.fetchOffset = max(fetchOffset, 0) }
        request.predicate = try predicate?.get()
        request.sortDescriptors = try sortKeys.map { key throws(RequestError) in
            FetchSortDescriptor(keyPath: try key.name.get(), ascending: key.ascending)
        }
        return request
    }
}
