import CDQIPredicate

/// An object of an entity, living in a ``ManagedObjectContext``: the row of a store, loaded on demand.
///
/// Values live in typed slots laid out once per entity (``EntityLayout``): attributes as
/// ``StoredValue``s, to-one relationships as object references, to-many relationships as ordered object
/// lists. A *fault* (an object fetched or referenced but not yet read) loads its row the first time a
/// value is read or changed; a to-many relationship loads its members the first time it is used.
///
/// Read and write values with the throwing key-value API (unknown keys, wrong value types and unfulfillable
/// faults are typed ``ManagedObjectError``s):
/// ```swift
/// let employee = try context.insertNewObject(forEntityName: "Employee")
/// try employee.setValue("Ada", forKey: "firstName")
/// try employee.setValue(department, forKey: "department")   // also adds it to department.employees
/// let name = try employee.value(forKey: "firstName") as? String
/// ```
/// Subclasses (one per entity, registered with the coordinator) add typed properties on top of this API.
/// Objects are confined to their context's thread or task, like the context itself.
open class ManagedObject: Hashable, KeyValueAccessible, CustomStringConvertible {
    /// The object's entity.
    @inlinable public final var entity: EntityLayout { entityHandle.layout }
    /// The entity as the object's context holds it (see ``EntityHandle``).
    @usableFromInline final let entityHandle: EntityHandle
    /// The object's ID: temporary until the first save, then permanent.
    // Unchecked exclusivity: only a save writes it (never while it is being read), and the run-time check
    // cost more than the copy on every read of a save's passes.
    @exclusivity(unchecked) public internal(set) var objectID: ManagedObjectID
    // The flags follow the ID, in the bytes its layout leaves over: 8 bytes less per object than after
    // the slots (an object is about 250 bytes; 100k fetched objects are walked by every pass over them).
    // The flags skip the run-time exclusivity check too: every row a fetch reads writes `isLoaded` and
    // every release of a cursor's batch reads the other two, and the check cost more than the access.
    /// Whether the slots hold the object's values (it is not a fault).
    @exclusivity(unchecked) var isLoaded: Bool
    @exclusivity(unchecked) var insertedFlag = false
    @exclusivity(unchecked) var deletedFlag = false
    /// What ``hasPersistentChanges`` last found, `nil` once an attribute or to-many slot or the
    /// snapshot's version is written since (each of those properties clears it), or a to-one slot
    /// through ``writeToOne(_:at:)``: a save asks it of every object before and after `willSave()`, and
    /// most objects' `willSave()` changes nothing. `isLoaded`, the originals and the to-one slots are
    /// otherwise only ever written together with one of those (loading, faulting, merging, keeping an
    /// original before a write, taking a snapshot), so they do not clear it themselves: a fetch writes
    /// them for every row.
    @exclusivity(unchecked) var knownPersistentChanges: Bool?
    /// The context the object is registered with; `nil` once the context is reset or released, or
    /// after the object's deletion was saved.
    // Unowned rather than weak: a weak reference gave the context a side table, which made every retain
    // and release of it take the slow path. Safe because an object holds a context only while registered
    // with it, and a context detaches every registered object when reset or released.
    @exclusivity(unchecked) public internal(set) unowned(safe) var managedObjectContext: ManagedObjectContext?

    // Typed slots (meaningful once loaded). Every setter writes one of them: they skip the run-time
    // exclusivity check, which cost more than the write (objects are confined to their context's
    // thread, and no access to a slot here overlaps another to the same slot).
    // Final and usable from inline code, so that the SQLite store's row reading and binding (generic over
    // rows and parameters, specialized there) reach them directly.
    @exclusivity(unchecked) @usableFromInline final var attributeValues: [StoredValue] { didSet { knownPersistentChanges = nil } }
    @exclusivity(unchecked) @usableFromInline final var toOneValues: ToOneSlots
    /// `nil` for a to-many relationship whose members are not loaded yet.
    @exclusivity(unchecked) var toManyValues: [ToManyStorage?] { didSet { knownPersistentChanges = nil } }
    // The snapshot: the values as the store last held them, kept as the originals of the slots written
    // since (the other slots hold their snapshot values) and the row version, in slots of their own
    // rather than one optional struct (reading a struct out of an optional retained every reference in it).
    /// The snapshot's attribute values for the slots written since it was taken.
    @exclusivity(unchecked) var originalAttributes = SnapshotOriginals<StoredValue>()
    /// The snapshot's to-one destinations for the slots written since it was taken.
    @exclusivity(unchecked) var originalToOnes = SnapshotOriginals<ManagedObject?>()
    /// The row version (`Z_OPT`) the snapshot came from; `nil` for an object never saved (no snapshot).
    @exclusivity(unchecked) var snapshotVersion: Int64? { didSet { knownPersistentChanges = nil } }
    /// The order objects were inserted in (saves allocate primary keys in this order).
    var insertionOrder = 0
    /// The object's position in its context's touched objects, -1 when not listed there.
    var touchedPosition = -1
    /// The primary key a save in progress allocated for this inserted object; `nil` outside a save.
    @exclusivity(unchecked) var allocatedKey: Int64?

    /// Creates an object; called by the context (use ``ManagedObjectContext/insertNewObject(forEntityName:)``
    /// to make a new object). Subclasses inherit it and should not need their own initializer; one that
    /// has its own must not use the context (it may run while the context reads the store): set values
    /// up in ``awakeFromInsert()`` or ``awakeFromFetch()`` instead.
    /// An object made with a context becomes that context's object for the ID (a fault) unless the
    /// context has one already; then it has no context.
    public required init(entity: EntityLayout, objectID: ManagedObjectID, context: ManagedObjectContext?) {
        // The ID's handle when it names `entity` (see ``EntityHandle``), as the context's IDs do.
        entityHandle =
            objectID.entity === entity ? objectID.handle : (context?.handle(for: entity) ?? EntityHandle(entity))
        self.objectID = objectID
        isLoaded = false
        attributeValues = []
        toOneValues = ToOneSlots()
        toManyValues = []
        context?.adopt(self)
    }

    /// The class, among this class and its ancestors, that declares no stored property, initializer or
    /// `deinit` beyond those of ``ManagedObject``, so that a fetch cursor may reuse an object it walked
    /// as another row's object rather than free it and make a new one (see ``FetchCursor``).
    ///
    /// `ManagedObject` returns itself, and so does each class `cdqi` generates (its typed properties are
    /// computed over the object's slots, and an extension cannot add stored properties or a `deinit`).
    /// A class written by hand inherits its superclass's answer, which is not itself: its objects are
    /// always made anew. Leave it alone in classes of your own.
    open class var cdqiReusableClass: ManagedObject.Type { ManagedObject.self }

    /// Whether objects of `type` may be reused as shells (see ``cdqiReusableClass``).
    static func reusesShells(_ type: ManagedObject.Type) -> Bool {
        ObjectIdentifier(type.cdqiReusableClass) == ObjectIdentifier(type)
    }

    /// Whether a fetch cursor may reuse this object, which it has just unregistered, as the shell of
    /// another row's object instead of freeing it: nothing else can reach it (no strong, weak or
    /// unowned reference besides `self`'s holder), and its class adds nothing to the base class (see
    /// ``cdqiReusableClass``), so that no initializer, stored property or `deinit` is skipped.
    ///
    /// The caller's reference must be the only strong one (checked with `isKnownUniquelyReferenced`),
    /// and the object must have no changes (checked by the caller, which needs to know anyway).
    var isReusableShell: Bool {
        // A weak reference gives the object a side table whose weak count is above 1; an unowned one
        // raises the unowned count above 1. Either could see the shell become another row's object.
        ManagedObject.reusesShells(type(of: self)) && _getWeakRetainCount(self) <= 1 && _getUnownedRetainCount(self) <= 1
    }

    /// Turns an unregistered shell (see ``isReusableShell``) into a fault for the row `key` of `layout`
    /// in the store `store`, belonging to the context it was unregistered from (which registers it again), as if it had just been made
    /// with ``init(entity:objectID:context:)``. Its attribute array and to-one slots are kept, for the
    /// fill from its row that follows at once to overwrite in place (``RowObjectReader``), and so is its
    /// context: a shell is reused only by the context that unregistered it, and setting the same unowned
    /// reference again cost a retain and a release per row. Its to-many slots are made unloaded (kept
    /// when none was loaded).
    func becomeShell(forKey key: Int64, of layout: EntityLayout, store: StoreNumber) {
        // Usually the ID already names this entity and store: only its key changes, in place (a new ID
        // copied over the old one retained and released both of its references).
        if objectID.entity === layout && objectID.store == store {
            objectID.identity = .primaryKey(key)
        } else {
            // The caller checked that the shell is of `layout`.
            objectID = ManagedObjectID(entity: entityHandle, store: store, primaryKey: key)
        }
        isLoaded = false
        insertedFlag = false
        deletedFlag = false
        // Replacing the slots released the one array every object of the context shares and took it
        // again when loaded (``EntityHandle/unloadedToMany``), per row.
        if toManyValues.count != layout.toManyCount || !toManyValues.allUnloaded {
            toManyValues = entityHandle.unloadedToMany
        }
        originalAttributes.removeAll()
        originalToOnes.removeAll()
        snapshotVersion = nil
        insertionOrder = 0
        touchedPosition = -1
        allocatedKey = nil
    }

    // MARK: State

    /// Whether the object's values are not loaded yet.
    public var isFault: Bool { !isLoaded }
    /// Whether the object was inserted and not saved yet.
    public var isInserted: Bool { insertedFlag }
    /// Whether the object was deleted and the deletion not saved yet.
    public var isDeleted: Bool { deletedFlag }
    /// Whether a saved object has unsaved changes to its stored properties.
    public var isUpdated: Bool { !insertedFlag && !deletedFlag && hasPersistentChanges }
    /// Whether the object is inserted, deleted or updated.
    public var hasChanges: Bool { insertedFlag || deletedFlag || hasPersistentChanges }

    /// Whether any stored attribute, to-one or to-many relationship differs from the snapshot.
    var hasPersistentChanges: Bool {
        if let known = knownPersistentChanges { return known }
        let changed = findPersistentChanges()
        knownPersistentChanges = changed
        return changed
    }

    /// ``hasPersistentChanges`` worked out from the slots and the snapshot's originals.
    private func findPersistentChanges() -> Bool {
        guard isLoaded else { return false }
        guard snapshotVersion != nil else { return true }
        var changed = false
        forEachChangedAttribute { _ in
            changed = true
            return false
        }
        if !changed {
            forEachChangedToOne { _ in
                changed = true
                return false
            }
        }
        if changed { return true }
        for slot in entity.storedToManySlots where toManyValues[slot]?.isChanged == true { return true }
        return false
    }

    /// Calls `body` with the slot of each stored attribute whose value differs from the snapshot's, in
    /// slot order, until it returns false. Only slots written since the snapshot
    /// (``originalAttributes``) can differ. The object must have a snapshot.
    func forEachChangedAttribute(_ body: (Int) -> Bool) {
        guard !originalAttributes.isEmpty else { return }
        let layout = entity
        guard attributeValues.count == layout.attributes.count else {
            for slot in layout.storedAttributeIndices where !body(slot) { return }
            return
        }
        // Current values are compared in place: copying each out of its array cost more than comparing.
        attributeValues.withUnsafeBufferPointer { current in
            guard let current = current.baseAddress else { return }
            var position = 0
            while position < originalAttributes.count {
                let original = originalAttributes[position]
                let slot = original.slot
                let changed = withUnsafePointer(to: original.value) { !StoredValue.same(current + slot, $0) }
                if changed, layout.isStoredAttribute[slot], !body(slot) { return }
                position += 1
            }
        }
    }

    /// Calls `body` with each stored to-one relationship whose destination differs from the snapshot's,
    /// in slot order, until it returns false. Only slots written since the snapshot
    /// (``originalToOnes``) can differ. The object must have a snapshot.
    func forEachChangedToOne(_ body: (RelationshipSlot) -> Bool) {
        guard !originalToOnes.isEmpty else { return }
        for relationship in entity.storedToOnes
        where toOneValues[relationship.slotIndex] !== committedToOne(at: relationship.slotIndex) && !body(relationship) {
            return
        }
    }

    /// Puts a value into attribute slot `index`, first keeping the value it replaces as the snapshot's
    /// if the slot was not written since the snapshot: every change to a loaded object's attribute goes
    /// through here.
    func writeAttribute(_ value: StoredValue, at index: Int) {
        if snapshotVersion != nil { originalAttributes.keep(index) { attributeValues[index] } }
        attributeValues[index] = value
    }

    /// Puts a destination into to-one slot `slot`, first keeping the one it replaces as the snapshot's
    /// if the slot was not written since the snapshot: every change to a loaded object's to-one
    /// relationship goes through here.
    func writeToOne(_ target: ManagedObject?, at slot: Int) {
        if snapshotVersion != nil { originalToOnes.keep(slot) { toOneValues[slot] } }
        toOneValues[slot] = target
        knownPersistentChanges = nil
    }

    /// The value the snapshot holds for attribute slot `index`.
    func committedAttribute(at index: Int) -> StoredValue {
        originalAttributes.entry(for: index)?.value ?? attributeValues[index]
    }

    /// The destination the snapshot holds for to-one slot `slot`.
    func committedToOne(at slot: Int) -> ManagedObject? {
        if let entry = originalToOnes.entry(for: slot) { return entry.value }
        return toOneValues[slot]
    }

    /// The snapshot as one value (for code off the hot paths); `nil` for an object never saved.
    var snapshot: Snapshot? {
        guard let version = snapshotVersion else { return nil }
        var attributes = attributeValues
        for position in 0..<originalAttributes.count {
            let entry = originalAttributes[position]
            if attributes.indices.contains(entry.slot) { attributes[entry.slot] = entry.value }
        }
        var toOne = toOneValues
        for position in 0..<originalToOnes.count {
            let entry = originalToOnes[position]
            if toOne.indices.contains(entry.slot) { toOne[entry.slot] = entry.value }
        }
        return Snapshot(attributes: attributes, toOne: toOne, version: version)
    }

    /// Makes the current values the snapshot, at row version `version` (a save wrote them or a row was read).
    func takeSnapshot(version: Int64) {
        originalAttributes.removeAll()
        originalToOnes.removeAll()
        snapshotVersion = version
    }

    /// The stored properties whose values changed since the object was last read or saved, with their
    /// new values (as ``value(forKey:)`` returns them). An inserted object reports every property that
    /// holds a value.
    public func changedValues() -> [String: Any?] {
        guard isLoaded else { return [:] }
        var changes: [String: Any?] = [:]
        let snapshot = snapshot
        for attribute in entity.attributes where attribute.column != nil {
            let value = attributeValues[attribute.index]
            if snapshot.map({ value != $0.attributes[attribute.index] }) ?? !value.isNull {
                changes[attribute.name] = ValueConversion.swiftValue(value, type: attribute.description.type)
            }
        }
        for relationship in entity.relationships where relationship.isStored {
            if relationship.isToMany {
                guard let storage = toManyValues[relationship.slotIndex], storage.isChanged else { continue }
                changes[relationship.name] = relationshipValue(storage, ordered: relationship.isOrdered)
            } else {
                let value = toOneValues[relationship.slotIndex]
                if value !== snapshot?.toOne[relationship.slotIndex] { changes[relationship.name] = value }
            }
        }
        return changes
    }

    /// The values of the stored attributes and to-one relationships as last read from or written to
    /// the store (empty for an object never saved, or a fault). To-many relationships are listed with the
    /// members they had when loaded.
    public var committedValues: [String: Any?] {
        guard isLoaded, let snapshot else { return [:] }
        var values: [String: Any?] = [:]
        for attribute in entity.attributes where attribute.column != nil {
            values[attribute.name] = ValueConversion.swiftValue(
                snapshot.attributes[attribute.index], type: attribute.description.type)
        }
        for relationship in entity.relationships where relationship.isStored {
            if relationship.isToMany {
                guard let storage = toManyValues[relationship.slotIndex] else { continue }
                values[relationship.name] = relationshipValue(
                    ToManyStorage(objects: storage.committed ?? [], isOrdered: false), ordered: relationship.isOrdered)
            } else {
                values[relationship.name] = snapshot.toOne[relationship.slotIndex]
            }
        }
        return values
    }

    func relationshipValue(_ storage: ToManyStorage, ordered: Bool) -> Any {
        ordered ? storage.objects : Set(storage.objects)
    }

    // MARK: Life-cycle hooks (for subclasses)

    /// Called once when the object is inserted, after the model's default values are set: set other
    /// initial values here.
    open func awakeFromInsert() {}

    /// Called when the object's values were loaded from the store (its fault fulfilled).
    open func awakeFromFetch() {}

    /// Called at the start of ``ManagedObjectContext/save()`` on every inserted, updated or deleted
    /// object; changes made here are saved too.
    open func willSave() {}

    /// Called after a save wrote the object (inserted, updated or deleted).
    open func didSave() {}

    // MARK: Loading

    /// Makes sure the object's values are loaded (fires the fault).
    func willAccess() throws(ManagedObjectError) {
        guard !isLoaded else { return }
        guard let context = managedObjectContext else { throw .noContext(entity: entity.name) }
        try context.fulfillFault(self)
    }

    /// Fills the slots with an empty, unsaved state (for a new object): the model's default values, no
    /// related objects. Its to-many relationships are set up when first used (an object without a
    /// primary key loads none), so that inserting allocates nothing for them.
    func loadEmpty() {
        // A copy of its own: the first write into the shared defaults would copy them the slow way.
        attributeValues = entity.defaultValues.freshCopy()
        if entity.toOneCount > 0 { toOneValues = ToOneSlots(count: entity.toOneCount) }
        toManyValues = entityHandle.unloadedToMany
        isLoaded = true
    }

    /// Drops the loaded values: the object becomes a fault again.
    func turnIntoFault() {
        isLoaded = false
        attributeValues = []
        toOneValues = ToOneSlots()
        toManyValues = []
        originalAttributes.removeAll()
        originalToOnes.removeAll()
        snapshotVersion = nil
    }

    // MARK: Hashable (identity)

    /// Whether the two are the same (identity for objects; the same row or temporary ID for IDs).
    public static func == (left: ManagedObject, right: ManagedObject) -> Bool { left === right }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The hash sets and dictionaries of objects use: the object's address mixed with the collection's
    /// seed by SplitMix64's finalizer (every bit of the address reaches every bit of the hash), in a few
    /// instructions instead of a hasher made, fed and finished per object (a notification's sets hold
    /// every object a save wrote, and hashing them cost as much as the rest of filling them). Equal
    /// objects are the same object, so they hash alike.
    public final func _rawHashValue(seed: Int) -> Int {
        // Wrapping arithmetic is the mixing itself: no value here comes from input.
        var bits = UInt64(UInt(bitPattern: ObjectIdentifier(self))) ^ UInt64(UInt(bitPattern: seed))
        bits = (bits ^ (bits >> 30)) &* 0xbf58_476d_1ce4_e5b9
        bits = (bits ^ (bits >> 27)) &* 0x94d0_49bb_1331_11eb
        return Int(truncatingIfNeeded: bits ^ (bits >> 31))
    }

    /// The entity, the URI and whether the object is a fault.
    open var description: String {
        "<\(entity.name) \(objectID.uriString)\(isFault ? " (fault)" : "")>"
    }
}

/// An object's values as the store last held them, and the row version (`Z_OPT`) they came from.
struct Snapshot {
    var attributes: [StoredValue]
    var toOne: ToOneSlots
    var version: Int64
}

extension ManagedObject {
    /// The version (`Z_OPT`) of the object's row when this context last read or saved it, or `nil` for
    /// an object never saved (or a fault not read yet): what a save expects the row to still have, and
    /// what ``MergeConflict/snapshotVersion`` reports when it does not.
    public var rowVersion: Int64? { snapshotVersion }
}
