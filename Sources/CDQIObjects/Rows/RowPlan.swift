import CDQIModel
import CDQIPredicate

/// Where each value of an entity's row sits in a result row, and how to read it: worked out once per
/// entity and query shape, so that reading a row does no lookup by column name. Its reading functions are
/// inlinable: a store in another module (the SQLite store) gets them specialized for its rows. A class: a plan is
/// immutable and read per row, and passing one reference costs less than copying its arrays.
@usableFromInline package final class RowPlan: Sendable {
    @usableFromInline package struct Attribute: Sendable {
        /// The attribute's slot.
        @usableFromInline package var index: Int
        @usableFromInline package var position: Int
        @usableFromInline package var type: AttributeType
    }

    @usableFromInline package struct ToOne: Sendable {
        @usableFromInline package var slot: Int
        @usableFromInline package var position: Int
        @usableFromInline package var entityPosition: Int?
        /// The destination's entity number, for rows whose to-one has no entity column.
        @usableFromInline package var destinationNumber: Int
    }

    @usableFromInline package let entityPosition: Int?
    @usableFromInline package let versionPosition: Int?
    /// The number of attribute slots (stored or not) of the entity.
    @usableFromInline package let attributeCount: Int
    @usableFromInline package let attributes: [Attribute]
    /// Whether `attributes` fills every slot, in slot order (no transient attributes): the common case,
    /// read by appending.
    @usableFromInline package let readsEverySlotInOrder: Bool
    @usableFromInline package let toOnes: [ToOne]

    package init(attributes: [AttributeSlot], relationships: [RelationshipSlot], positions: [String: Int], schema: StoreSchema) {
        entityPosition = positions["Z_ENT"]
        versionPosition = positions["Z_OPT"]
        attributeCount = attributes.count
        self.attributes = attributes.compactMap { attribute in
            guard let column = attribute.column, let position = positions[column] else { return nil }
            return Attribute(index: attribute.index, position: position, type: attribute.description.type)
        }
        readsEverySlotInOrder =
            self.attributes.count == attributeCount
            && self.attributes.enumerated().allSatisfy { $0.offset == $0.element.index }
        toOnes = relationships.compactMap { relationship in
            guard !relationship.isToMany, let column = relationship.columns.value, let position = positions[column] else {
                return nil
            }
            return ToOne(
                slot: relationship.slotIndex, position: position,
                entityPosition: relationship.columns.entity.flatMap { positions[$0] },
                destinationNumber: schema.entity(named: relationship.description.destinationEntityName)?.number ?? 0)
        }
    }

    /// The attribute values of the current row, by slot (`.null` for transient attributes).
    @inlinable package func attributeValues<Row: StoreRow>(in statement: Row) -> [StoredValue] {
        var values: [StoredValue] = []
        values.reserveCapacity(attributeCount)
        // Loops by index: the iterators here compared indexes through an unspecialized witness.
        var position = 0
        if readsEverySlotInOrder {
            while position < attributes.count {
                let attribute = attributes[position]
                values.append(statement.attributeValue(attribute.position, type: attribute.type))
                position += 1
            }
            return values
        }
        while values.count < attributeCount { values.append(.null) }
        while position < attributes.count {
            let attribute = attributes[position]
            values[attribute.index] = statement.attributeValue(attribute.position, type: attribute.type)
            position += 1
        }
        return values
    }

    /// Reads the attribute values of the current row into `values`, by slot: in place when `values`
    /// already has one element per slot (an object shell reused by a fetch cursor keeps its array, so
    /// that reading a row allocates none), else as a new array (``attributeValues(in:)``).
    @inlinable package func readAttributeValues<Row: StoreRow>(in statement: Row, into values: inout [StoredValue]) {
        guard values.count == attributeCount else {
            values = attributeValues(in: statement)
            return
        }
        // Through one buffer: each write to the array itself checked that it was unique.
        values.withUnsafeMutableBufferPointer { slots in
            var position = 0
            if !readsEverySlotInOrder {
                while position < slots.count {
                    slots[position] = .null
                    position += 1
                }
                position = 0
            }
            while position < attributes.count {
                let attribute = attributes[position]
                if attribute.index < slots.count {
                    slots[attribute.index] = statement.attributeValue(attribute.position, type: attribute.type)
                }
                position += 1
            }
        }
    }

    /// The primary key and entity number a to-one column of the current row refers to, or `nil` for NULL.
    @inlinable package func reference<Row: StoreRow>(_ toOne: ToOne, in statement: Row) -> (key: Int64, entityNumber: Int)? {
        guard let key = statement.integer(toOne.position) else { return nil }
        var number = toOne.destinationNumber
        if let entityPosition = toOne.entityPosition, let entity = statement.integer(entityPosition) {
            number = Int(entity)
        }
        return (key, number)
    }

    /// The row's optimistic-locking version (`Z_OPT`), 0 when the shape does not read it.
    @inlinable package func version<Row: StoreRow>(in statement: Row) -> Int64 {
        versionPosition.map { statement.int64($0) } ?? 0
    }
}
