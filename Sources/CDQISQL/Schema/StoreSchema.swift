import CDQIModel

/// How a model maps onto Core Data's SQLite layout: entity numbers, one table per inheritance
/// hierarchy, a column per stored property, join tables for many-to-many relationships, and indexes
/// (`../shared/reference/coredata-sqlite-format.md` §3–§7).
public struct StoreSchema: Sendable, Hashable {
    /// The entities, in entity-number order (`Z_ENT` 1, 2, …).
    public var entities: [EntityMapping]
    /// The entity tables, one per inheritance hierarchy, in root entity-number order.
    public var tables: [TableDefinition]
    /// The join tables of many-to-many (and inverse-less to-many) relationships.
    public var joinTables: [JoinTable]
    /// Every index: foreign keys, `Z_ENT`, fetch indexes, legacy indexes and uniqueness constraints.
    public var indexes: [IndexDefinition]

    /// The mapping of the named entity.
    public func entity(named name: String) -> EntityMapping? {
        entities.first { $0.name == name }
    }

    /// The mapping of the entity with the given number.
    public func entity(number: Int) -> EntityMapping? {
        number >= 1 && number <= entities.count ? entities[number - 1] : nil
    }

    /// The table with the given name.
    public func table(named name: String) -> TableDefinition? {
        tables.first { $0.name == name }
    }
}

/// One entity's place in the store.
public struct EntityMapping: Sendable, Hashable {
    /// The entity's name.
    public var name: String
    /// The entity number (`Z_ENT`, and the row of `Z_PRIMARYKEY`).
    public var number: Int
    /// The parent's number, or 0 for a root (`Z_SUPER`).
    public var superNumber: Int
    /// The numbers of this entity and all its descendants: the `Z_ENT` values a fetch of it includes.
    public var numbersIncludingSubentities: [Int]
    /// The hierarchy's table.
    public var tableName: String
    /// The columns of this entity's stored properties (inherited ones included), by property name.
    public var columns: [String: PropertyColumns]
}

/// The columns that hold one property.
public struct PropertyColumns: Sendable, Hashable {
    /// The value column (for a to-one, the destination's `Z_PK`), or `nil` for a to-many.
    public var value: String?
    /// For a to-one whose destination has sub-entities: the column holding the destination's `Z_ENT`.
    public var entity: String?
    /// For a to-one whose inverse is ordered: the column holding this object's position (`Z_FOK_…`).
    public var order: String?
    /// For a to-many stored in a join table: that table's name.
    public var joinTable: String?

    /// Creates a property's column set; a to-many whose inverse holds the key has none.
    public init(value: String? = nil, entity: String? = nil, order: String? = nil, joinTable: String? = nil) {
        self.value = value
        self.entity = entity
        self.order = order
        self.joinTable = joinTable
    }
}

/// An entity table: `Z_PK`, `Z_ENT`, `Z_OPT`, then the property columns.
public struct TableDefinition: Sendable, Hashable {
    /// The table's name (`Z` + the root entity's name, upper-cased).
    public var name: String
    /// The root entity's name.
    public var rootEntityName: String
    /// The columns after `Z_PK`, `Z_ENT` and `Z_OPT`, in order.
    public var columns: [ColumnDefinition]
}

/// A column and its declared SQL type.
public struct ColumnDefinition: Sendable, Hashable {
    /// The column's name.
    public var name: String
    /// The declared type: `INTEGER`, `TIMESTAMP`, `FLOAT`, `DECIMAL`, `VARCHAR` or `BLOB`.
    public var type: String
}

/// A join table for a many-to-many relationship pair.
public struct JoinTable: Sendable, Hashable {
    /// The table's name (`Z_<n><RELATIONSHIP>`).
    public var name: String
    /// The column holding the `Z_PK` of the naming relationship's source object.
    public var sourceColumn: String
    /// The column holding the `Z_PK` of its destination object.
    public var destinationColumn: String
    /// The ordering column of an ordered relationship (`Z_FOK_…`), if either side is ordered.
    public var orderColumn: String?
    /// The entity and relationship the source column belongs to (the one that names the table).
    public var sourceEntity: String
    /// The relationship that names the table.
    public var relationship: String
    /// Its inverse, if any.
    public var inverseRelationship: String?
}

/// An index, as Core Data names and declares it.
public struct IndexDefinition: Sendable, Hashable {
    /// The index's name.
    public var name: String
    /// The table it indexes.
    public var table: String
    /// The indexed column terms, in order (`ZUUID COLLATE BINARY ASC`, or just `ZDEPARTMENT`).
    public var terms: [String]
    /// Whether it is a UNIQUE index (a uniqueness constraint).
    public var isUnique: Bool
}
