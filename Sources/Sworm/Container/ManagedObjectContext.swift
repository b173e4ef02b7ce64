import CDQIPredicate
import CDQIStore

/// The context a ``PersistentContainer/perform(action:)`` closure works in: insert plain values,
/// fetch, count and delete through requests. It wraps one of the store's contexts
/// (``CDQIStore/ManagedObjectContext``) and is only valid inside the closure.
public final class ManagedObjectContext {
    /// The errors of the context's own operations.
    public enum Error: Swift.Error, Hashable, CustomStringConvertible {
        /// The model has no entity of this name (a type's `entityName` that does not match the model).
        case unknownEntity(String)

        public var description: String {
            switch self {
            case .unknownEntity(let name): "the model has no entity '\(name)'"
            }
        }
    }

    /// The store's context.
    public let instance: CDQIStore.ManagedObjectContext
    /// Failures of the calls that cannot throw, thrown by `perform`.
    @usableFromInline let session = ContextSession()

    /// Wraps a store context.
    public init(_ instance: CDQIStore.ManagedObjectContext) {
        self.instance = instance
    }

    // MARK: Writing

    /// Inserts a new object of `P.entityName` holding `value`'s attributes.
    /// - Throws: ``Error/unknownEntity(_:)``, or the store's refusal of a value.
    @discardableResult
    public func insert<P: ManagedObjectConvertible>(_ value: P) throws -> ManagedObject<P> {
        let object: CDQIStore.ManagedObject
        do {
            object = try instance.insertNewObject(forEntityName: P.entityName)
        } catch .unknownEntity(let name) {
            throw Error.unknownEntity(name)
        }
        let wrapper = ManagedObject<P>(instance: object, session: session)
        try wrapper.encodeThrowing(value)
        return wrapper
    }

    /// Deletes an object (a failure is thrown by the enclosing `perform`).
    public func delete(_ managedObject: ManagedObject<some ManagedObjectConvertible>) {
        session.recording { try instance.delete(managedObject.instance) }
    }

    /// Deletes every object the request finds.
    public func delete(_ request: Request<some ManagedObjectConvertible>) throws {
        for object in try instance.fetch(try request.fetchRequest()) {
            try instance.delete(object)
        }
    }

    /// Deletes every object the request finds in the store, at once, and returns how many: as upstream,
    /// an `NSBatchDeleteRequest` (here ``CDQIStore/BatchDeleteRequest``) run in the store, bypassing the
    /// context.
    ///
    /// - The deletion is written when this call returns, in a transaction of its own: it stays even if
    ///   the enclosing `perform` later throws, and it does not wait for the `perform`'s save.
    /// - It sees saved data only: an object inserted earlier in the same `perform` and not saved yet is
    ///   neither counted nor deleted.
    /// - Delete rules are applied in the store as Core Data applies them to batch deletes (nullify,
    ///   cascade; a Deny rule with destinations refuses the whole batch with a thrown
    ///   ``CDQIStore/BatchError``).
    /// - Objects of this context whose rows were deleted become invalidated faults (unlike upstream,
    ///   where they stay stale until merged).
    @discardableResult
    public func batchDelete<P: ManagedObjectConvertible>(_ request: Request<P>) throws -> Int where P.Relations == Void {
        var batch = BatchDeleteRequest(fetchRequest: try request.fetchRequest())
        batch.resultType = .count
        guard case .count(let count) = try instance.execute(batch) else { return 0 }
        return count
    }

    // MARK: Reading

    /// The number of objects the request finds (unsaved changes included).
    @discardableResult
    public func count(of request: Request<some ManagedObjectConvertible>) throws -> Int {
        try instance.count(for: try request.fetchRequest())
    }

    /// The objects the request finds (unsaved changes included).
    @inlinable @discardableResult
    public func fetch<P: ManagedObjectConvertible>(_ request: Request<P>) throws -> [ManagedObject<P>] {
        var objects = try instance.fetch(try request.fetchRequest())
        // One plan for the fetch (the objects of a subentity look theirs up when decoded).
        guard let first = objects.first else { return [] }
        let plan = session.plan(P.self, for: first)
        // Each object moves from the fetched array into its wrapper (last first, then the wrappers are
        // put back in order; `consume` hands the reference over without retaining it), so that neither
        // wrapping nor freeing the fetched array touches the objects: retaining and releasing each one
        // would read it from memory again, and at 100k objects they are long out of the cache.
        var wrappers: [ManagedObject<P>] = []
        wrappers.reserveCapacity(objects.count)
        while let object = objects.popLast() {
            wrappers.append(ManagedObject(instance: consume object, session: session, plan: plan))
        }
        wrappers.reverse()
        return wrappers
    }

    /// One attribute of the objects the request finds, decoded. Like upstream's dictionary fetch, it
    /// reads saved data only.
    @discardableResult
    public func fetch<P: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ request: Request<P>, _ keyPath: KeyPath<P, A>
    ) throws -> [A] {
        let name = try P.attributeName(for: keyPath)
        return try attributeValues(request, name).map { try ManagedObject<P>.decode(A.self, $0, name: name) }
    }

    /// One optional attribute of the objects the request finds, decoded (`nil` for no value). It reads
    /// saved data only.
    @discardableResult
    public func fetch<P: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ request: Request<P>, _ keyPath: KeyPath<P, A?>
    ) throws -> [A?] {
        let name = try P.attributeName(for: keyPath)
        return try attributeValues(request, name).map { stored in
            stored.isNull ? nil : try ManagedObject<P>.decode(A.self, stored, name: name)
        }
    }

    /// The first object the request finds, or `nil`.
    @discardableResult
    public func fetchOne<P: ManagedObjectConvertible>(_ request: Request<P>) throws -> ManagedObject<P>? {
        try fetch(request.limit(1)).first
    }

    /// One attribute of the first object the request finds, or `nil`.
    @discardableResult
    public func fetchOne<P: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ request: Request<P>, _ keyPath: KeyPath<P, A>
    ) throws -> A? {
        try fetch(request.limit(1), keyPath).first
    }

    /// One optional attribute of the first object the request finds, or `nil` (also when it has none).
    @discardableResult
    public func fetchOne<P: ManagedObjectConvertible, A: SupportedAttributeType>(
        _ request: Request<P>, _ keyPath: KeyPath<P, A?>
    ) throws -> A? {
        try fetch(request.limit(1), keyPath).first ?? nil
    }

    private func attributeValues<P>(_ request: Request<P>, _ name: String) throws -> [StoredValue] {
        var fetchRequest = try request.fetchRequest()
        fetchRequest.propertiesToFetch = [.keyPath(name)]
        return try instance.fetchDictionaries(fetchRequest).map { $0[name] ?? .null }
    }

    // MARK: Running

    /// Runs `action`, then throws the first recorded failure or saves the changes; resets the store
    /// context afterwards when `reset` is set (also when something threw).
    func execute<T>(reset: Bool, _ action: (ManagedObjectContext) throws -> T) throws -> T {
        defer { if reset { instance.reset() } }
        let result = try action(self)
        if let error = session.errors.first { throw error }
        if instance.hasChanges { try instance.save() }
        return result
    }
}
