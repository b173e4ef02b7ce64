import CDQIModel
import CDQIPredicate

/// A scratch pad of managed objects over a store: objects are loaded on demand, changed in memory, and
/// written back together by ``save()``.
///
/// A context is confined to one thread or task at a time, as in Core Data; it is not `Sendable`. Pass
/// ``ManagedObjectID``s (which are) between contexts. Each context holds at most one object per ID
/// (uniquing). Several contexts may share one ``PersistentStoreCoordinator``; conflicting saves are
/// detected through the rows' `Z_OPT` versions and resolved by ``mergePolicy``.
///
/// The context owns its objects: they stay registered (and in memory) until ``reset()`` or until the
/// context is released, after which they hold no values and every access throws
/// ``ManagedObjectError/noContext(entity:)``. Keep the context alive as long as its objects are used.
///
/// ```swift
/// let context = ManagedObjectContext(coordinator: coordinator)
/// let department = try context.insertNewObject(forEntityName: "Department")
/// try department.setValue("Research", forKey: "name")
/// try context.save()
/// ```
public final class ManagedObjectContext {
    /// The coordinator whose store the context reads and writes.
    public let coordinator: PersistentStoreCoordinator
    /// What ``save()`` does about objects changed in the store since they were read.
    public var mergePolicy: MergePolicy = .error

    /// One object per ID.
    /// Unchecked exclusivity as for an object's slots: every fetched or inserted object is registered.
    @exclusivity(unchecked) var registered: ObjectRegistry
    /// Objects inserted, deleted or changed since the last save (some may have been changed back).
    @exclusivity(unchecked) var touched = TouchedObjects()
    var insertionCounter = 0
    /// The number of ``adopt(_:)`` calls: a new object's initializer (the user's code) may adopt one.
    @exclusivity(unchecked) private var adoptions = 0
    /// What ``insert(_:)`` worked out for a class: its entity and the class its objects are made of,
    /// under the coordinator's registration count.
    private var lastInsertTarget:
        (
            type: ObjectIdentifier, registrations: Int, layout: EntityLayout, objectClass: ManagedObject.Type
        )?
    /// The class ``objectClass(for:)`` worked out last for a layout (faults and fetched rows come in runs
    /// of one entity), under the coordinator's registration count.
    private var lastObjectClass: (layout: EntityLayout, registrations: Int, objectClass: ManagedObject.Type)?
    /// The layout ``entityLayout(named:)`` found last, with the name it was asked for.
    private var lastLayoutByName: (name: String, layout: EntityLayout)?
    /// This context's handle on each entity's layout, by entity number (see ``handle(for:)``).
    /// Unchecked exclusivity: read for every object made, and never accessed overlapping.
    @exclusivity(unchecked) private var handlesByNumber: [EntityHandle?] = []
    /// What generated accessors could not throw (see `accessorErrors`); added for the typed accessors.
    var accessorErrorLog: [ManagedObjectError] = []
    /// Where the coordinator posts other contexts' saves while ``automaticallyMergesChangesFromParent``
    /// is on; `nil` while it is off.
    /// Unchecked exclusivity: read before every fetch and count, and never accessed overlapping.
    @exclusivity(unchecked) var mergeInbox: MergeInbox?
    /// Objects an automatic merge found deleted from the store: out of the registry, faults whose
    /// access throws ``ManagedObjectError/faultNotFulfilled(objectID:)``; they leave the context (and
    /// throw ``ManagedObjectError/noContext(entity:)``) at ``reset()`` or when the context goes away.
    var invalidatedByMerge: [ManagedObject] = []
    /// Loaded objects with unsaved changes whose rows a merge found updated (and left as they were, for
    /// the merge policy): once their changes are undone, the next processing of pending changes turns
    /// them into faults, so they read the new row (see ``refreshStaleObjectsWithoutChanges()``).
    /// Unchecked exclusivity: read before every fetch and count, and never accessed overlapping.
    @exclusivity(unchecked) var staleUnderChanges: [ManagedObject] = []
    /// What the last ``processPendingChanges()`` reported for each object it saw, by object identity.
    /// Unchecked exclusivity: read before every fetch and count, and never accessed overlapping.
    @exclusivity(unchecked) var processedStates: [ObjectIdentifier: ProcessedObjectState] = [:]
    /// The fetched-results controllers watching this context.
    var changeObservers: [WeakChangeObserver] = []
    /// For each stored to-many relationship whose members were loaded, the statement reading one
    /// owner's members (`nil`: nothing to read them through), made once rather than for every owner (see
    /// ``loadToMany(of:_:)``). The relationship is kept with it, so that its identifier is not reused.
    var toManyQueries: [ObjectIdentifier: (relationship: RelationshipSlot, query: KeyedRowQuery?)] = [:]
    /// The subscribers of ``changes``.
    let changeStreams = ChangeStreams<ContextChange>()
    /// The coordinator's external-write generation this context has merged up to (see
    /// ``refreshIfStoreChanged()``).
    var externalGeneration: Int

    /// Creates a context on a coordinator.
    public init(coordinator: PersistentStoreCoordinator) {
        self.coordinator = coordinator
        registered = ObjectRegistry(store: coordinator.storeNumber)
        externalGeneration = coordinator.externalWriteGeneration
    }

    deinit {
        // Objects refer to each other strongly through their relationship slots; break those cycles.
        for object in registered.values { object.detachFromContext() }
        for object in touched.values { object.detachFromContext() }
        for object in invalidatedByMerge { object.detachFromContext() }
        if let mergeInbox { coordinator.unfollow(mergeInbox) }
        changeStreams.finish()
    }

    // MARK: Objects

    /// Inserts a new object of the named entity. Attributes start with the model's default values;
    /// the object has a temporary ID until it is saved.
    public func insertNewObject(forEntityName name: String) throws(ContextError) -> ManagedObject {
        guard let layout = entityLayout(named: name) else { throw .unknownEntity(name) }
        guard !layout.entity.isAbstract else { throw .abstractEntity(name) }
        return insertObject(of: layout, as: objectClass(for: layout))
    }

    /// Inserts a new object of a concrete entity, an instance of `type`.
    private func insertObject(of layout: EntityLayout, as type: ManagedObject.Type) -> ManagedObject {
        let object = type.init(entity: layout, objectID: ManagedObjectID(temporaryFor: handle(for: layout)), context: nil)
        object.managedObjectContext = self
        object.loadEmpty()
        object.insertedFlag = true
        insertionCounter += 1
        object.insertionOrder = insertionCounter
        registered[object.objectID] = object
        touched.insert(object)
        object.awakeFromInsert()
        return object
    }

    /// Inserts a new object of a registered subclass (see ``PersistentStoreCoordinator/register(_:forEntityName:)``).
    /// The entity is the one `type` is registered for, else the entity named like the class.
    public func insert<T: ManagedObject>(_ type: T.Type) throws(ContextError) -> T {
        let registrations = coordinator.registrationCount
        // Inserts come in runs of one class: the entity and class worked out last time are reused
        // while no class was registered since.
        if let last = lastInsertTarget, last.type == ObjectIdentifier(type), last.registrations == registrations {
            return unsafeDowncast(insertObject(of: last.layout, as: last.objectClass), to: T.self)
        }
        let name = coordinator.entityName(for: type) ?? String(describing: type)
        guard let layout = entityLayout(named: name) else { throw .unknownEntity(name) }
        guard !layout.entity.isAbstract else { throw .abstractEntity(name) }
        let objectClass = objectClass(for: layout)
        guard objectClass is T.Type else {
            throw .unknownEntity("\(name) (objects of this entity are not \(String(describing: type)); register the class)")
        }
        lastInsertTarget = (ObjectIdentifier(type), registrations, layout, objectClass)
        return unsafeDowncast(insertObject(of: layout, as: objectClass), to: T.self)
    }

    /// The object with this ID: the registered one, or a fault that loads its row when first used.
    /// (It does not check that the row exists; ``existingObject(with:)`` does.)
    public func object(with id: ManagedObjectID) -> ManagedObject { registeredObject(with: id).object }

    /// The object registered with this ID, or a new fault registered for it (`isNew`).
    func registeredObject(with id: ManagedObjectID) -> (object: ManagedObject, isNew: Bool) {
        if let object = registered[id] { return (object, false) }
        // An ID made by this coordinator carries its layout; one from another coordinator on the same
        // model is mapped by name.
        let layout =
            coordinator.layout.entity(number: id.entity.number) === id.entity
            ? id.entity : (coordinator.layout.entity(named: id.entityName) ?? id.entity)
        // Made outside any access to the registry: a subclass's initializer is the user's code (and if
        // it registered an object for this ID meanwhile, that one stays).
        let adoptionsBefore = adoptions
        // The ID again on this context's handle (equal to `id`), so that the object counts its entity on
        // a handle of this context, not of the one the ID came from (see ``EntityHandle``).
        let own = ManagedObjectID(entity: handle(for: layout), store: id.store, identity: id.identity)
        let object = objectClass(for: layout).init(entity: layout, objectID: own, context: nil)
        if adoptions != adoptionsBefore, let registeredMeanwhile = registered[id] { return (registeredMeanwhile, false) }
        object.managedObjectContext = self
        registered[id] = object
        return (object, true)
    }

    /// The object of the row with primary key `key` of `layout` (one of this coordinator's layouts) in
    /// this context's store: the registered one, or a new fault of class `type` (by default the class
    /// registered for the entity).
    func registeredObject(
        of layout: EntityLayout, key: Int64, type: ManagedObject.Type? = nil
    ) -> (object: ManagedObject, isNew: Bool) {
        if let object = registered.object(root: layout.rootNumber, key: key) { return (object, false) }
        let adoptionsBefore = adoptions
        let object = (type ?? objectClass(for: layout)).init(
            entity: layout, objectID: ManagedObjectID(entity: handle(for: layout), store: coordinator.storeNumber, primaryKey: key),
            context: nil)
        if adoptions != adoptionsBefore, let registeredMeanwhile = registered.object(root: layout.rootNumber, key: key) {
            return (registeredMeanwhile, false)
        }
        object.managedObjectContext = self
        registered.insert(object, root: layout.rootNumber, key: key)
        return (object, true)
    }

    /// The class objects of `layout` are made of: ``PersistentStoreCoordinator/objectClass(for:)``, the
    /// last answer reused while no class was registered since (the coordinator's look-up takes a lock and
    /// hashes the entity, and every fault, fetch and insert asks).
    func objectClass(for layout: EntityLayout) -> ManagedObject.Type {
        let registrations = coordinator.registrationCount
        if let last = lastObjectClass, last.layout === layout, last.registrations == registrations { return last.objectClass }
        let objectClass = coordinator.objectClass(for: layout)
        lastObjectClass = (layout, registrations, objectClass)
        return objectClass
    }

    /// This context's handle on `layout` (see ``EntityHandle``), which its objects and the IDs it makes
    /// hold: one per entity and context, whose reference count only this context's thread changes.
    func handle(for layout: EntityLayout) -> EntityHandle {
        let number = layout.number
        if number < handlesByNumber.count, let handle = handlesByNumber[number], handle.layout === layout { return handle }
        if number >= handlesByNumber.count {
            handlesByNumber.append(contentsOf: repeatElement(nil, count: number + 1 - handlesByNumber.count))
        }
        let handle = EntityHandle(layout)
        handlesByNumber[number] = handle
        return handle
    }

    /// The coordinator's layout of the entity named `name`, `nil` for no such entity. The last answer
    /// is reused for the same name: every fetch, insert by name and fetched object ID asks, mostly for
    /// the entity asked for before, and comparing the name costs less than hashing it (the layouts of a
    /// coordinator never change).
    func entityLayout(named name: String) -> EntityLayout? {
        if let last = lastLayoutByName, last.name == name { return last.layout }
        guard let layout = coordinator.layout.entity(named: name) else { return nil }
        lastLayoutByName = (name, layout)
        return layout
    }

    /// Registers an object made directly with this context (see ``ManagedObject/init(entity:objectID:context:)``)
    /// unless the context has an object with its ID.
    func adopt(_ object: ManagedObject) {
        adoptions += 1
        guard registered[object.objectID] == nil else { return }
        object.managedObjectContext = self
        registered[object.objectID] = object
    }

    /// The object with this ID, loaded.
    /// - Throws: ``ContextError/objectNotFound(objectID:)`` when no such object exists (deleted or never
    ///   saved).
    public func existingObject(with id: ManagedObjectID) throws(ContextError) -> ManagedObject {
        if let object = registered[id], object.isLoaded { return object }
        if id.isTemporaryID { throw .objectNotFound(objectID: id.uriString) }
        let object = object(with: id)
        do {
            try object.willAccess()
        } catch .faultNotFulfilled {
            if !object.hasChanges { unregister(object) }
            throw .objectNotFound(objectID: id.uriString)
        } catch {
            throw .object(error)
        }
        return object
    }

    /// The ID of the object with this URI (`x-coredata://STORE-UUID/Entity/p12`), or `nil` when the URI
    /// is not one of this store's object IDs.
    public func objectID(forURIString uri: String) -> ManagedObjectID? {
        guard let reference = ObjectReference(uriString: uri) else { return nil }
        return objectID(for: reference)
    }

    /// The ID a predicate-layer reference names, or `nil` when it names another store or an unknown entity.
    public func objectID(for reference: ObjectReference) -> ManagedObjectID? {
        guard let layout = entityLayout(named: reference.entityName) else { return nil }
        switch reference.identity {
        case .primaryKey(let key):
            guard reference.storeIdentifier == coordinator.storeIdentifier else { return nil }
            return ManagedObjectID(entity: handle(for: layout), store: coordinator.storeNumber, primaryKey: key)
        case .temporary:
            let id = ManagedObjectID(entity: handle(for: layout), store: .none, identity: reference.identity)
            return registered[id] != nil ? id : nil
        }
    }

    /// The object a predicate-layer reference names (a fault when not registered yet), or `nil` when it
    /// names another store, an unknown entity or an unknown temporary ID. Store fetches return such
    /// references.
    public func object(for reference: ObjectReference) -> ManagedObject? {
        objectID(for: reference).map { object(with: $0) }
    }

    /// The registered object with this ID, if any (never a new fault).
    public func registeredObject(for id: ManagedObjectID) -> ManagedObject? { registered[id] }

    /// Every object registered with the context.
    public var registeredObjects: Set<ManagedObject> { Set(registered.values) }

    /// Marks an object for deletion at the next save, applying its relationships' delete rules now:
    /// Nullify removes it from the inverse relationships, Cascade deletes the destinations, Deny makes the
    /// save fail while the relationship still holds objects, No Action does nothing. Deleting an object
    /// that was inserted and never saved simply removes it.
    public func delete(_ object: ManagedObject) throws(ContextError) {
        guard object.managedObjectContext === self else { throw .foreignObject(objectID: object.objectID.uriString) }
        guard !object.deletedFlag else { return }
        do {
            try object.willAccess()
        } catch .faultNotFulfilled {
            // Already gone from the store: nothing to delete.
            unregister(object)
            return
        } catch {
            throw .object(error)
        }
        object.deletedFlag = true
        touched.insert(object)
        do {
            for relationship in object.entity.relationships where relationship.isStored {
                let destinations: [ManagedObject]
                if relationship.isToMany {
                    destinations = try object.toMany(relationship).objects
                } else {
                    destinations = object.toOneValues[relationship.slotIndex].map { [$0] } ?? []
                }
                switch relationship.description.deleteRule {
                case .nullify:
                    for destination in destinations {
                        guard let inverse = object.inverse(of: relationship, on: destination) else { continue }
                        try destination.detachUnlessGone(object, inverse: inverse)
                    }
                case .cascade:
                    for destination in destinations where !destination.deletedFlag { try delete(destination) }
                case .deny, .noAction:
                    break
                }
            }
        } catch let error as ManagedObjectError {
            throw .object(error)
        } catch let error as ContextError {
            throw error
        } catch {
            throw .object(.store("\(error)"))
        }
        if object.insertedFlag {
            // Never saved: it simply goes away.
            object.insertedFlag = false
            object.deletedFlag = false
            unregister(object)
        }
    }

    // MARK: Changes

    /// Whether any object is inserted, deleted or changed.
    public var hasChanges: Bool { touched.values.contains { $0.hasChanges } }

    /// The objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> { Set(touched.values.filter(\.insertedFlag)) }

    /// The saved objects changed since the last save (and not deleted).
    public var updatedObjects: Set<ManagedObject> { Set(touched.values.filter(\.isUpdated)) }

    /// The objects deleted since the last save.
    public var deletedObjects: Set<ManagedObject> { Set(touched.values.filter { $0.deletedFlag && !$0.insertedFlag }) }

    func objectDidChange(_ object: ManagedObject) {
        touched.insert(object)
    }

    /// Discards every unsaved change: inserted objects leave the context, deleted and changed objects
    /// become faults again and reload their saved values when next used. Posts
    /// ``didChangeObjectsNotification``: the inserted objects as deleted, the others as refreshed.
    public func rollback() {
        var change = ObjectsDidChange()
        for object in touched.values {
            if object.insertedFlag {
                unregister(object)
                object.insertedFlag = false
                change.deleted.insert(object)
            } else {
                object.deletedFlag = false
                object.turnIntoFault()
                change.refreshed.insert(object)
            }
        }
        defer { announce(change) }
        touched.removeAll()
        forgetProcessedChanges()
        // Loaded to-many relationships of unchanged objects may list objects that were just removed.
        for object in registered.values where object.isLoaded {
            for index in object.toManyValues.indices where object.toManyValues[index]?.isChanged == true {
                object.toManyValues[index] = nil
            }
        }
    }

    /// Forgets every object: registered objects leave the context (they keep no values and can no
    /// longer be used), and unsaved changes are discarded.
    public func reset() {
        for object in registered.values { object.detachFromContext() }
        for object in touched.values { object.detachFromContext() }
        for object in invalidatedByMerge { object.detachFromContext() }
        registered.removeAll()
        touched.removeAll()
        invalidatedByMerge.removeAll()
        forgetProcessedChanges()
        // Saves posted so far concern objects that are gone now.
        _ = mergeInbox?.take()
        var change = ObjectsDidChange()
        change.invalidatedAll = true
        announce(change)
    }

    /// Updates an object from the store. With `mergeChanges: false` the object becomes a fault and its
    /// unsaved changes are discarded; with `true` it reloads the saved values and keeps its unsaved
    /// changes on top of them.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws(ContextError) {
        guard object.managedObjectContext === self else { throw .foreignObject(objectID: object.objectID.uriString) }
        guard !object.insertedFlag else { return }
        guard mergeChanges, object.isLoaded else {
            object.deletedFlag = false
            object.turnIntoFault()
            touched.remove(object)
            processedStates[ObjectIdentifier(object)] = nil
            return
        }
        do {
            try reloadKeepingChanges(object)
        } catch {
            throw .object(error)
        }
        rebaseProcessedState(of: object)
    }

    func unregister(_ object: ManagedObject) {
        registered[object.objectID] = nil
        touched.remove(object)
        object.detachFromContext()
    }

    // MARK: Running work

    /// Runs `body` now, on the caller's thread, and returns its result. A context belongs to whoever
    /// created it, so there is no queue to hop to; this exists so Core Data-shaped code reads the same.
    /// Use ``PersistentStoreCoordinator/performBackgroundTask(_:)`` for work on another context off the
    /// caller's thread. With ``automaticallyMergesChangesFromParent`` on, other contexts' saves are
    /// merged first.
    public func performAndWait<T>(_ body: () throws -> T) rethrows -> T {
        processPendingMerges()
        defer { processPendingChanges() }
        return try body()
    }

    /// Runs `body` in the caller's isolation (the context's owner) and returns its result; see
    /// ``performAndWait(_:)``. With ``automaticallyMergesChangesFromParent`` on, other contexts' saves
    /// are merged first.
    public nonisolated(nonsending) func perform<T>(_ body: () throws -> T) async rethrows -> T {
        processPendingMerges()
        defer { processPendingChanges() }
        return try body()
    }
}

extension ManagedObject {
    /// Leaves the context: values dropped (breaking reference cycles), no context.
    func detachFromContext() {
        turnIntoFault()
        managedObjectContext = nil
    }
}
