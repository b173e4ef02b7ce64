/// Turns whole rows (`Z_ENT, Z_PK`, then the columns of ``EntityLayout/tableColumnsSQL``) into a
/// context's registered objects as a statement steps through them: one object per ID, and objects that
/// are faults filled straight from their row.
///
/// Every query that reads objects by whole rows goes through it: fetches, fetch cursors, faulting and
/// prefetching relationships. Read while holding the store, keeping every object it returns in order,
/// then call ``awakeFilledObjects(in:)`` with them once the store is released: `awakeFromFetch` is the
/// user's code and may use the store.
@usableFromInline package struct RowObjectReader {
    @usableFromInline let context: ManagedObjectContext
    private let schema: ModelLayout
    /// The positions, among the objects returned so far, of those not filled (registered and loaded
    /// already): usually none, so that a fetch of many new objects keeps no list as long as its result.
    private var unfilledPositions: [Int] = []
    private var returnedCount = 0
    // The entity of the last row and its class: rows mostly come in runs of one entity.
    @usableFromInline var currentNumber = -1
    /// The layout of entity `currentNumber`, unretained (see ``ModelLayout/unretainedEntity(number:)``:
    /// the reader's `schema` holds it).
    @usableFromInline var currentLayout: Unmanaged<EntityLayout>?
    private var currentType: ManagedObject.Type = ManagedObject.self
    /// Whether objects of `currentType` may be made from ``shells`` (see ``ManagedObject/cdqiReusableClass``).
    private var currentTypeReusesShells = true
    /// Unregistered objects of this reader's context that nothing else holds (see
    /// ``ManagedObject/isReusableShell``), reused for rows not registered yet instead of making new
    /// objects: a fetch cursor hands over the objects of the batch it walked. They still name the
    /// context (see ``ManagedObject/becomeShell(forKey:of:store:)``).
    var shells: [ManagedObject] = []

    package init(context: ManagedObjectContext) {
        self.context = context
        schema = context.coordinator.layout
    }

    /// The object of the statement's current row, and whether it was registered just now.
    ///
    /// Inlinable, so that a store in another module (the SQLite store) reads its rows specialized: the
    /// row is read here, and what does not depend on the row's type (registering) is called.
    ///
    /// - Throws: ``StoreError/damagedStore(path:reason:)`` for a row whose `Z_ENT` names no entity of
    ///   the model (999, NULL, text): such a row is reported, never skipped, so that reading and
    ///   counting never disagree without a word.
    @inlinable
    package mutating func object<Row: StoreRow>(at statement: Row) throws(StoreError) -> (object: ManagedObject, isNew: Bool) {
        let number = Int(statement.int64(0))
        if number != currentNumber || currentLayout == nil {
            guard statement.holdsInteger(0), enterEntity(number: number) else { throw unknownEntity(statement) }
        }
        guard let current = currentLayout else { throw unknownEntity(statement) }
        return current._withUnsafeGuaranteedRef { layout in
            let (registered, fills) = register(layout, number: number, key: statement.int64(1))
            if fills { fill(registered.object, from: statement, plan: layout.tablePlan) }
            return registered
        }
    }

    /// Fills a fault's slots and snapshot straight from the current row of a whole-row statement
    /// (`plan` is its entity's `tablePlan`), without an intermediate ``StoredRow``.
    @inlinable func fill<Row: StoreRow>(_ object: ManagedObject, from statement: Row, plan: RowPlan) {
        // Written into the object's slots directly: each copy of the slots retained every destination.
        // A reused shell's slots are overwritten in place when the row sets every one of them.
        let toOneCount = object.entity.toOneCount
        if toOneCount > 0 {
            if object.toOneValues.count != toOneCount || plan.toOnes.count != toOneCount {
                object.toOneValues = ToOneSlots(count: toOneCount)
            }
            for slot in plan.toOnes {
                object.toOneValues[slot.slot] = context.object(referencedBy: plan.reference(slot, in: statement))
            }
        }
        plan.readAttributeValues(in: statement, into: &object.attributeValues)
        context.finishLoading(object, version: plan.version(in: statement))
    }

    /// The error for a row whose `Z_ENT` names no entity of the model.
    @usableFromInline func unknownEntity<Row: StoreRow>(_ row: Row) -> StoreError {
        StoreError.unknownEntityRow(row, path: context.coordinator.store.location)
    }

    /// Makes the entity numbered `number` the current one (its layout and class); `false`, changing
    /// nothing, when the model has no such entity.
    @usableFromInline mutating func enterEntity(number: Int) -> Bool {
        guard let unretained = schema.unretainedEntity(number: number) else { return false }
        currentNumber = number
        currentLayout = unretained
        currentType = unretained._withUnsafeGuaranteedRef { context.objectClass(for: $0) }
        currentTypeReusesShells = ManagedObject.reusesShells(currentType)
        return true
    }

    /// The registered object of the row `key` of `layout` (entity `number`), and whether to fill it from
    /// the row: a registered object that is loaded keeps its values (they may hold unsaved changes); one
    /// whose ID names an ancestor entity is left a fault rather than filled with the wrong layout.
    @usableFromInline mutating func register(
        _ layout: EntityLayout, number: Int, key: Int64
    ) -> (registered: (object: ManagedObject, isNew: Bool), fills: Bool) {
        if let shell = takeShell(of: layout, key: key) {
            shell.becomeShell(forKey: key, of: layout, store: context.coordinator.storeNumber)
            context.registered.insert(shell, root: layout.rootNumber, key: key)
            // A fault of this very entity: filled. Returned straight away: a copy of the reference to
            // check it counted one more per row.
            returnedCount += 1
            return ((shell, true), true)
        }
        let registered = context.registeredObject(of: layout, key: key, type: currentType)
        let fills = !registered.object.isLoaded && registered.object.entity.number == number
        if !fills { unfilledPositions.append(returnedCount) }
        returnedCount += 1
        return (registered, fills)
    }

    /// A shell (see ``shells``) to become the object of the row `key` of `layout`, taken from the list,
    /// or `nil` when there is none of the current class and entity or the row's object is registered.
    /// Popped rather than read then removed: reading the last one counted a reference more per row.
    private mutating func takeShell(of layout: EntityLayout, key: Int64) -> ManagedObject? {
        guard currentTypeReusesShells, let shell = shells.popLast() else { return nil }
        guard shell.entity === layout, type(of: shell) == currentType,
            context.registered.object(root: layout.rootNumber, key: key) == nil
        else {
            shells.append(shell)
            return nil
        }
        return shell
    }

    /// Calls `awakeFromFetch` on the objects filled, in row order; `returned` holds every object
    /// ``object(at:)`` returned, in order.
    package mutating func awakeFilledObjects(in returned: [ManagedObject]) {
        var nextUnfilled = 0
        returned.forEachUnretained { position, object in
            guard position < returnedCount else { return }
            if nextUnfilled < unfilledPositions.count && unfilledPositions[nextUnfilled] == position {
                nextUnfilled += 1
            } else {
                object.awakeFromFetch()
            }
        }
        unfilledPositions = []
        returnedCount = 0
    }
}

extension ManagedObjectContext {
    /// Runs a keyed whole-row read (``KeyedRowQuery``) with `keys` bound in order and returns its rows'
    /// objects; `each` sees every row's object with its owner's key (for to-many members).
    func objects(
        ofRows query: KeyedRowQuery, keys: [Int64], _ each: (ManagedObject, Int64?) -> Void = { _, _ in }
    ) throws(ManagedObjectError) -> [ManagedObject] {
        var reader = RowObjectReader(context: self)
        var objects: [ManagedObject] = []
        do {
            try coordinator.store.readObjects(query, keys: keys, reader: &reader, into: &objects, each)
        } catch {
            throw .store("\(error)")
        }
        reader.awakeFilledObjects(in: objects)
        return objects
    }
}
