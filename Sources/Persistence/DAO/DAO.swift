import CDQIStore

/// The base data access object (upstream's `DAOBase`): the ``DAOProtocol`` operations for one entity
/// in one context. Subclass it to add business methods, and make instances with
/// ``DAOFactory/newDAO(_:)``; use ``RuntimeDAO`` when no methods are needed.
///
/// A DAO is the interceptor of the criteria it runs: it supplies the request for its entity.
open class DAO: DAOProtocol, CDQueryTransformInterceptor {
    /// The context the DAO works in.
    public var managedObjectContext: ManagedObjectContext
    /// The DAO's entity; `nil` for a DAO made with ``init(context:)`` until a subclass sets it.
    public var entityName: String?
    /// Where this DAO reports errors; `nil` (the default) reports to ``errorHandler``.
    public var errorHandler: (@Sendable (any Error) -> Void)?

    /// A DAO in `context` with no entity yet (subclasses set ``entityName``). ``DAOFactory/newDAO(_:)``
    /// calls this initializer.
    public required init(context: ManagedObjectContext) {
        managedObjectContext = context
        entityName = nil
    }

    /// A DAO of `entityName` in `context`.
    public init(contextAndEntityName context: ManagedObjectContext, entityName: String?) {
        managedObjectContext = context
        self.entityName = entityName
    }

    /// A DAO of `entityName` in `context`.
    public convenience init(context: ManagedObjectContext, entityName: String?) {
        self.init(contextAndEntityName: context, entityName: entityName)
    }

    /// A DAO of the entity named as `entityClass` (its unqualified type name), in `context`.
    public convenience init(contextAndEntityName context: ManagedObjectContext, entityClass: AnyClass) {
        self.init(contextAndEntityName: context, entityName: String(describing: entityClass))
    }

    // MARK: Interceptor

    /// Makes this DAO the interceptor of `criteria`.
    open func registerInterceptor(_ criteria: any CDCriteria) {
        (criteria as? CDSearchCriteria)?.registerInterceptor(newCriteriaInterceptor())
    }

    /// The interceptor for criteria: the DAO itself.
    open func newCriteriaInterceptor() -> any CDQueryTransformInterceptor {
        self
    }

    /// Does nothing; override to adjust criteria before their request is made.
    open func beforeCreateFetchRequest(_ criteria: any CDCriteria) {}

    /// The request for the DAO's entity; `nil` when it has none.
    open func createFetchRequest() -> FetchRequest? {
        guard let entityName else { return nil }
        return FetchRequest(entityName: entityName)
    }

    // MARK: Reporting

    /// `body`'s result, or `fallback` after reporting its error.
    func reporting<T>(_ fallback: T, _ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            report(PersistenceError.wrapping(error), to: errorHandler)
            return fallback
        }
    }

    /// `body`'s result, its error wrapped as a ``PersistenceError``.
    func wrapped<T>(_ body: () throws -> T) throws(PersistenceError) -> T {
        do {
            return try body()
        } catch {
            throw PersistenceError.wrapping(error)
        }
    }

    /// The request `criteria` (empty when `nil`) make through this DAO.
    func request(for criteria: CDSearchCriteria?) throws(PersistenceError) -> FetchRequest {
        let criteria = criteria ?? CDSearchCriteria()
        registerInterceptor(criteria)
        return try criteria.tryCreateFetchRequest()
    }

    // MARK: DAOProtocol (logging)

    open func findAllId() -> [ManagedObjectID] { reporting([]) { try tryFindAllId(nil) } }
    open func findAll() -> [Any] { reporting([]) { try tryFindAll(nil) } }
    open func findAll(_ fetchOffset: Int, limit: Int) -> [Any] {
        reporting([]) { try tryFindAll(nil, fetchOffset: fetchOffset, limit: limit) }
    }
    open func findAllId(_ criteria: CDSearchCriteria?) -> [ManagedObjectID] { reporting([]) { try tryFindAllId(criteria) } }
    open func findAll(_ criteria: CDSearchCriteria?) -> [Any] { reporting([]) { try tryFindAll(criteria) } }
    open func findAll(_ criteria: CDSearchCriteria?, fetchOffset: Int, limit: Int) -> [Any] {
        reporting([]) { try tryFindAll(criteria, fetchOffset: fetchOffset, limit: limit) }
    }
    open func count() -> Int { reporting(0) { try tryCount(nil) } }
    open func count(_ criteria: CDSearchCriteria?) -> Int { reporting(0) { try tryCount(criteria) } }
    open func insertNewObject() -> ManagedObject! { reporting(nil) { try tryInsertNewObject() } }
    open func deleteObject(_ object: ManagedObject) { reporting(()) { try tryDeleteObject(object) } }
    open func findObjectById(_ objectID: ManagedObjectID) -> ManagedObject! { managedObjectContext.object(with: objectID) }
    open func refreshObject(_ object: ManagedObject, mergeChanges flag: Bool) {
        reporting(()) { try tryRefreshObject(object, mergeChanges: flag) }
    }

    // MARK: Throwing twins

    /// ``findAllId(_:)``, throwing instead of reporting.
    public func tryFindAllId(_ criteria: CDSearchCriteria? = nil) throws(PersistenceError) -> [ManagedObjectID] {
        let request = try request(for: criteria)
        return try wrapped { try managedObjectContext.fetchObjectIDs(request) }
    }

    /// ``findAll(_:)``, throwing instead of reporting.
    public func tryFindAll(_ criteria: CDSearchCriteria? = nil) throws(PersistenceError) -> [Any] {
        let request = try request(for: criteria)
        return try wrapped { try fetch(request) }
    }

    /// ``findAll(_:fetchOffset:limit:)``, throwing instead of reporting. A `limit` of 0 or less means no
    /// limit (upstream's `NSUInteger` made `-1` the largest number); a negative offset means none.
    public func tryFindAll(_ criteria: CDSearchCriteria?, fetchOffset: Int, limit: Int) throws(PersistenceError) -> [Any] {
        var request = try request(for: criteria)
        request.fetchLimit = max(limit, 0)
        request.fetchOffset = max(fetchOffset, 0)
        return try wrapped { try fetch(request) }
    }

    /// ``count(_:)``, throwing instead of reporting.
    public func tryCount(_ criteria: CDSearchCriteria? = nil) throws(PersistenceError) -> Int {
        var request = try request(for: criteria)
        request.propertiesToFetch = []
        return try wrapped { try managedObjectContext.count(for: request) }
    }

    /// ``insertNewObject()``, throwing instead of reporting.
    public func tryInsertNewObject() throws(PersistenceError) -> ManagedObject {
        guard let entityName else { throw .store(ContextError.unknownEntity("(no entity name)")) }
        return try wrapped { try managedObjectContext.insertNewObject(forEntityName: entityName) }
    }

    /// ``deleteObject(_:)``, throwing instead of reporting.
    public func tryDeleteObject(_ object: ManagedObject) throws(PersistenceError) {
        try wrapped { try managedObjectContext.delete(object) }
    }

    /// ``refreshObject(_:mergeChanges:)``, throwing instead of reporting.
    public func tryRefreshObject(_ object: ManagedObject, mergeChanges flag: Bool) throws(PersistenceError) {
        try wrapped { try managedObjectContext.refresh(object, mergeChanges: flag) }
    }

    /// Objects, or dictionaries for a request with properties to fetch.
    private func fetch(_ request: FetchRequest) throws -> [Any] {
        if request.propertiesToFetch.isEmpty {
            return try managedObjectContext.fetch(request)
        }
        let context = managedObjectContext
        let (storeRequest, lowercased) = LowercaseProjection.split(DateSumProjection.rewrite(request))
        return try context.fetchDictionaries(storeRequest).map { row in
            LowercaseProjection.apply(lowercased, to: ResultRow.make(row, in: context))
        }
    }
}
