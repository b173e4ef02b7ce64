import CDQIPredicate

/// What the UPDATE of one row sets: the stored attributes and to-one relationships whose values differ
/// from the row's. A save keeps one and refills it for every updated object, so that updating many rows
/// allocates nothing per row.
@usableFromInline package struct RowChanges {
    /// A to-one target as the save writes it: primary key and entity number.
    @usableFromInline package typealias Reference = (key: Int64, entityNumber: Int)

    /// The changed attributes' slots.
    @usableFromInline package private(set) var attributes: [Int] = []
    /// The changed to-one relationships (indices in the layout's relationships) and their new targets.
    @usableFromInline package private(set) var toOnes: [(relationship: Int, target: Reference?)] = []
    /// What names the UPDATE statement: the attribute slots (0 and up), then for each to-one a negative
    /// number, -1 - (its relationship index doubled, plus one when it becomes NULL, which clears its
    /// order column too): attribute slots and to-ones never share a number.
    package private(set) var shape: [Int] = []

    /// The changes of a loaded object against its snapshot (it must have one: `snapshotVersion` not
    /// nil); `reference` gives a target's key as the save writes it.
    package mutating func collectAgainstSnapshot(of object: ManagedObject, reference: (ManagedObject?) -> Reference?) {
        removeAll()
        object.forEachChangedAttribute { slot in
            append(attribute: slot)
            return true
        }
        object.forEachChangedToOne { relationship in
            let target = reference(object.toOneValues[relationship.slotIndex])
            if !Self.same(reference(object.committedToOne(at: relationship.slotIndex)), target) {
                append(toOne: relationship.index, target: target)
            }
            return true
        }
    }

    /// The changes of `values` against `base` (both of a row of `layout`).
    mutating func collect(_ values: RowValues, against base: RowValues, layout: EntityLayout) {
        removeAll()
        for index in layout.storedAttributeIndices where values.attributes[index] != base.attributes[index] {
            append(attribute: index)
        }
        for relationship in layout.storedToOnes {
            let target = values.toOne[relationship.slotIndex]
            if !Self.same(base.toOne[relationship.slotIndex], target) { append(toOne: relationship.index, target: target) }
        }
    }

    // Element by element: `removeAll(keepingCapacity:)` goes through `replaceSubrange`, which cost more
    // than the rest of collecting a row's changes.
    private mutating func removeAll() {
        while !attributes.isEmpty { attributes.removeLast() }
        while !toOnes.isEmpty { toOnes.removeLast() }
        while !shape.isEmpty { shape.removeLast() }
    }

    private mutating func append(attribute index: Int) {
        attributes.append(index)
        shape.append(index)
    }

    private mutating func append(toOne relationship: Int, target: Reference?) {
        toOnes.append((relationship, target))
        shape.append(-1 - (2 * relationship + (target == nil ? 1 : 0)))
    }

    package static func same(_ left: Reference?, _ right: Reference?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case let (l?, r?): return l.key == r.key && l.entityNumber == r.entityNumber
        default: return false
        }
    }

    /// The columns the UPDATE sets, in binding order (the version column excluded).
    package func columns(of layout: EntityLayout) -> [String] {
        var columns = attributes.compactMap { layout.attributes[$0].column }
        for (index, target) in toOnes {
            columns += Self.columns(of: layout.relationships[index], withOrder: target == nil)
        }
        return columns
    }

    /// Binds the changed values in the order of ``columns(of:)`` from parameter 1 on (attribute values
    /// from `attributeValues`, by slot) and returns the next parameter's position.
    @inlinable package func bind<Parameters: StoreParameters>(
        to statement: inout Parameters, layout: EntityLayout, attributeValues: [StoredValue]
    ) throws -> Int {
        var position = 1
        for index in attributes where layout.isStoredAttribute[index] {
            try statement.bind(attributeValues[index], at: position)
            position += 1
        }
        for (index, target) in toOnes {
            position = try Self.bind(target, of: layout.relationships[index], withOrder: target == nil, to: &statement, at: position)
        }
        return position
    }

    /// A to-one's columns, in binding order: its value, its destination's entity number (when the
    /// destination has sub-entities) and, `withOrder`, its order key (an insert writes NULL there, and
    /// so does an update that sets the to-one to NULL).
    package static func columns(of relationship: RelationshipSlot, withOrder: Bool) -> [String] {
        let columns = relationship.columns
        return [columns.value, columns.entity, withOrder ? columns.order : nil].compactMap { $0 }
    }

    /// Binds a to-one's target to the columns of ``columns(of:withOrder:)`` from parameter `position`
    /// on, and returns the next parameter's position.
    @inlinable package static func bind<Parameters: StoreParameters>(
        _ target: Reference?, of relationship: RelationshipSlot, withOrder: Bool, to statement: inout Parameters,
        at position: Int
    ) throws -> Int {
        var position = position
        if relationship.columns.value != nil {
            try statement.bind(target.map { .integer($0.key) } ?? .null, at: position)
            position += 1
        }
        if relationship.columns.entity != nil {
            try statement.bind(target.map { .integer(Int64($0.entityNumber)) } ?? .null, at: position)
            position += 1
        }
        if withOrder, relationship.columns.order != nil {
            try statement.bind(.null, at: position)
            position += 1
        }
        return position
    }
}
