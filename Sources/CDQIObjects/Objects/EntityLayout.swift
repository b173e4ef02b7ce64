import CDQIModel
import CDQIPredicate

/// One entity's shape at run time, computed once per coordinator: where each property lives in a
/// managed object's slots and in the store's row. Immutable, and shared by every object and object ID
/// of the entity.
public final class EntityLayout: Sendable, CustomStringConvertible {
    /// The entity's name.
    public let name: String
    /// The entity as the model declares it.
    public let entity: EntityDescription
    /// The entity number (`Z_ENT`).
    public let number: Int
    /// The name of the hierarchy's root entity (primary keys are unique per root).
    public let rootName: String
    /// The root entity's number: its `Z_PRIMARYKEY` row holds `Z_MAX`.
    public let rootNumber: Int
    /// The hierarchy's table.
    public let tableName: String
    /// The numbers of this entity and its sub-entities.
    public let numbersIncludingSubentities: [Int]
    /// The names of this entity and its ancestors, nearest first.
    public let lineage: [String]
    /// The stored and transient attributes, inherited ones first.
    package let attributes: [AttributeSlot]
    /// Each attribute's default value, by slot: a new object's starting values.
    package let defaultValues: [StoredValue]
    /// The relationships, inherited ones first.
    @usableFromInline package let relationships: [RelationshipSlot]
    /// Every property by name.
    package let properties: [String: PropertySlot]
    /// The number of to-one and to-many slots.
    @usableFromInline package let toOneCount: Int
    package let toManyCount: Int
    /// The slots of the stored (not transient) attributes and to-many relationships: what a save writes
    /// and compares, without copying a slot description per property.
    @usableFromInline package let storedAttributeIndices: [Int]
    /// Whether each attribute slot is stored (has a column).
    @usableFromInline package let isStoredAttribute: [Bool]
    package let storedToManySlots: [Int]
    /// The stored to-one relationships (each has its value column), in slot order.
    @usableFromInline package let storedToOnes: [RelationshipSlot]
    /// The stored attributes a save validates: required ones and those with a range, length or pattern.
    package let validatedAttributes: [AttributeSlot]
    /// The stored relationships a save validates: required ones and to-many ones with count limits.
    package let validatedRelationships: [RelationshipSlot]
    /// Whether a save of an object of the entity may write rows besides its own: join-table rows of a
    /// many-to-many relationship, or order keys of an ordered one.
    package let writesRelationshipRows: Bool
    /// The uniqueness constraints that apply (declared here or on an ancestor).
    package let uniquenessConstraints: [ConstraintLayout]
    /// `Z_ENT, Z_OPT`, then the stored attributes' and to-one relationships' columns: what `selectRowSQL` reads.
    package let rowColumns: [String]
    /// `SELECT Z_ENT, Z_OPT, <stored columns…> FROM <table> WHERE Z_PK = ?`
    package let selectRowSQL: String
    /// The result position of each column `selectRowSQL` reads.
    package let rowColumnPositions: [String: Int]
    /// `t0.Z_ENT, t0.Z_PK`, the table's last column, `t0.Z_OPT`, then its other columns in table order:
    /// reads whole rows of any entity of the hierarchy (to load the members of a relationship together).
    package let tableColumnsSQL: String
    /// `Z_ENT, Z_PK`, the table's last column, `Z_OPT`, then the others: what `tableColumnsSQL` reads.
    package let tableColumns: [String]
    /// `tableColumnsSQL` and `selectRowSQL` in PostgreSQL's dialect (names quoted, `$1`), written once.
    let postgresTableColumnsSQL: String
    package let postgresSelectRowSQL: String
    /// The result position of each column `tableColumnsSQL` reads.
    package let tableColumnPositions: [String: Int]
    /// The number of columns `tableColumnsSQL` reads (a column selected after them is at this position).
    package let tableColumnCount: Int
    /// How to decode a row read by `selectRowSQL`, and one read by `tableColumnsSQL`, worked out once so
    /// that reading a row does no lookup by column name.
    package let rowPlan: RowPlan
    @usableFromInline package let tablePlan: RowPlan

    package init(
        entity: EntityDescription, mapping: EntityMapping, rootName: String, rootNumber: Int, lineage: [String],
        model: ManagedObjectModel, schema: StoreSchema
    ) {
        name = entity.name
        self.entity = entity
        number = mapping.number
        self.rootName = rootName
        self.rootNumber = rootNumber
        tableName = mapping.tableName
        numbersIncludingSubentities = mapping.numbersIncludingSubentities
        self.lineage = lineage
        var properties: [String: PropertySlot] = [:]
        var attributes: [AttributeSlot] = []
        for description in model.allAttributes(of: entity) where properties[description.name] == nil {
            let column = description.isTransient ? nil : mapping.columns[description.name]?.value
            let slot = AttributeSlot(index: attributes.count, description: description, column: column)
            attributes.append(slot)
            properties[description.name] = .attribute(slot.index)
        }
        var relationships: [RelationshipSlot] = []
        var toOne = 0, toMany = 0
        for description in Self.relationshipDescriptions(of: entity, model: model) {
            let columns = description.isTransient ? PropertyColumns() : (mapping.columns[description.name] ?? PropertyColumns())
            var join: JoinSide?
            if let tableName = columns.joinTable, let table = schema.joinTables.first(where: { $0.name == tableName }) {
                // This relationship is the table's naming side when it has the naming name and is declared
                // on the naming entity (or its ancestors); otherwise it is the inverse side.
                let isSource = table.relationship == description.name && lineage.contains(table.sourceEntity)
                join = JoinSide(table: table, isSource: isSource)
            }
            let slotIndex: Int
            if description.isToMany {
                slotIndex = toMany
                toMany += 1
            } else {
                slotIndex = toOne
                toOne += 1
            }
            let inverseIndex = description.inverseName.flatMap { inverseName in
                model.entity(named: description.destinationEntityName).flatMap { destination in
                    Self.relationshipDescriptions(of: destination, model: model).firstIndex { $0.name == inverseName }
                }
            }
            let slot = RelationshipSlot(
                index: relationships.count, slotIndex: slotIndex, description: description, columns: columns, join: join,
                inverseIndex: inverseIndex)
            relationships.append(slot)
            properties[description.name] = .relationship(slot.index)
        }
        self.attributes = attributes
        defaultValues = attributes.map(\.defaultValue)
        self.relationships = relationships
        self.properties = properties
        toOneCount = toOne
        toManyCount = toMany
        storedAttributeIndices = attributes.filter { $0.column != nil }.map(\.index)
        isStoredAttribute = attributes.map { $0.column != nil }
        validatedAttributes = attributes.filter { $0.column != nil && ($0.hasValueConstraints || !$0.isOptional) }
        validatedRelationships = relationships.filter { relationship in
            let description = relationship.description
            guard relationship.isStored else { return false }
            guard relationship.isToMany else { return !description.isOptional }
            return !description.isOptional || description.minCount != nil || (description.maxCount ?? 0) > 0
        }
        storedToManySlots = relationships.filter { $0.isStored && $0.isToMany }.map(\.slotIndex)
        storedToOnes = relationships.filter { !$0.isToMany && $0.columns.value != nil }
        writesRelationshipRows = relationships.contains { $0.join != nil || $0.isOrdered }
        var constraints: [ConstraintLayout] = []
        for declaring in lineage {
            guard let declaringEntity = model.entity(named: declaring),
                let declaringMapping = schema.entity(named: declaring)
            else { continue }
            for constraint in declaringEntity.uniquenessConstraints {
                constraints.append(
                    ConstraintLayout(
                        declaringEntity: declaring, entityNumbers: declaringMapping.numbersIncludingSubentities,
                        properties: constraint.properties))
            }
        }
        uniquenessConstraints = constraints
        var columns = ["Z_ENT", "Z_OPT"]
        for attribute in attributes { if let column = attribute.column { columns.append(column) } }
        for relationship in relationships where !relationship.description.isToMany {
            if let column = relationship.columns.value { columns.append(column) }
            if let column = relationship.columns.entity { columns.append(column) }
        }
        rowColumns = columns
        selectRowSQL = "SELECT \(columns.joined(separator: ", ")) FROM \(mapping.tableName) WHERE Z_PK = ?"
        rowColumnPositions = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // The table's last column comes right after the key: SQLite decodes a row's header only as far as
        // the columns asked so far, so asking the last one early decodes it in one pass, where reading in
        // table order resumed the decoding at every column (a fifth of the cost of stepping a row).
        var dataColumns = schema.table(named: mapping.tableName)?.columns.map(\.name) ?? []
        if let last = dataColumns.popLast() { dataColumns.insert(last, at: 0) }
        let tableColumns = ["Z_ENT", "Z_PK"] + dataColumns.prefix(1) + ["Z_OPT"] + dataColumns.dropFirst()
        self.tableColumns = tableColumns
        let postgres = SQLDialect.postgres
        postgresTableColumnsSQL = tableColumns.map { postgres.column("t0", $0) }.joined(separator: ", ")
        postgresSelectRowSQL =
            "SELECT " + columns.map(postgres.identifier).joined(separator: ", ") + " FROM "
            + postgres.identifier(mapping.tableName) + " WHERE \"Z_PK\" = $1"
        tableColumnsSQL = tableColumns.map { "t0." + $0 }.joined(separator: ", ")
        tableColumnCount = tableColumns.count
        tableColumnPositions = Dictionary(
            tableColumns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        rowPlan = RowPlan(attributes: attributes, relationships: relationships, positions: rowColumnPositions, schema: schema)
        tablePlan = RowPlan(
            attributes: attributes, relationships: relationships, positions: tableColumnPositions, schema: schema)
    }

    /// The columns an inserted row gets, in binding order: `Z_PK, Z_ENT, Z_OPT`, the stored attributes'
    /// columns, then each stored to-one's (value, entity, order).
    package var insertColumns: [String] {
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"] + storedAttributeIndices.compactMap { attributes[$0].column }
        for relationship in storedToOnes { columns += RowChanges.columns(of: relationship, withOrder: true) }
        return columns
    }

    /// `tableColumnsSQL` in a dialect: each column of ``tableColumns`` as `t0.<column>`.
    package func tableColumnsSQL(_ dialect: SQLDialect) -> String {
        dialect == .sqlite ? tableColumnsSQL : postgresTableColumnsSQL
    }

    /// Whether this entity is `name` or descends from it.
    public func isKind(of name: String) -> Bool { lineage.contains(name) }

    /// A sentence describing the value.
    public var description: String { name }

    package func attribute(named key: String) -> AttributeSlot? {
        if case .attribute(let index)? = properties[key] { return attributes[index] }
        return nil
    }

    /// The relationships a layout holds, in slot order: inherited ones first, each name once, none
    /// shadowed by an attribute of the same name.
    package static func relationshipDescriptions(of entity: EntityDescription, model: ManagedObjectModel) -> [RelationshipDescription] {
        var names = Set(model.allAttributes(of: entity).map(\.name))
        return model.allRelationships(of: entity).filter { names.insert($0.name).inserted }
    }

    package func relationship(named key: String) -> RelationshipSlot? {
        if case .relationship(let index)? = properties[key] { return relationships[index] }
        return nil
    }
}

/// Where a property lives.
package enum PropertySlot: Sendable {
    case attribute(Int)
    case relationship(Int)
}

/// An attribute: its description, its slot, and its column (none for transient attributes).
///
/// A class, not a struct: loops over an entity's attributes run for every object saved or loaded, and
/// copying a struct that holds a whole `AttributeDescription` retains and releases each of its fields.
package final class AttributeSlot: Sendable {
    package let index: Int
    package let description: AttributeDescription
    package let column: String?
    /// The value a new object starts with (the model's default), converted once.
    package let defaultValue: StoredValue
    package let isOptional: Bool
    /// Whether saving checks more than presence: a range, a length or a pattern.
    package let hasValueConstraints: Bool
    package var name: String { description.name }

    package init(index: Int, description: AttributeDescription, column: String?) {
        self.index = index
        self.description = description
        self.column = column
        defaultValue = ValueConversion.defaultValue(of: description)
        isOptional = description.isOptional
        hasValueConstraints =
            description.minValueString != nil || description.maxValueString != nil
            || description.minDateTimeInterval != nil || description.maxDateTimeInterval != nil
            || description.regularExpression?.isEmpty == false
    }
}

/// A relationship: its description, its slot (in the to-one or to-many slot array) and its columns.
/// A class for the same reason as ``AttributeSlot``.
@usableFromInline package final class RelationshipSlot: Sendable {
    package let index: Int
    @usableFromInline package let slotIndex: Int
    package let description: RelationshipDescription
    @usableFromInline package let columns: PropertyColumns
    package let join: JoinSide?
    /// The inverse's index in the destination entity's relationships (and, inherited first, in its
    /// sub-entities'), so that inverse maintenance looks it up without hashing its name.
    package let inverseIndex: Int?

    package init(
        index: Int, slotIndex: Int, description: RelationshipDescription, columns: PropertyColumns, join: JoinSide?,
        inverseIndex: Int?
    ) {
        self.index = index
        self.slotIndex = slotIndex
        self.description = description
        self.columns = columns
        self.join = join
        self.inverseIndex = inverseIndex
    }

    package var name: String { description.name }
    package var isToMany: Bool { description.isToMany }
    package var isOrdered: Bool { description.isToMany && description.isOrdered }
    package var isStored: Bool { !description.isTransient }
}

/// A many-to-many relationship's join table, seen from one side.
package struct JoinSide: Sendable {
    package let table: JoinTable
    /// `true` when the objects of this side are in the table's source column.
    package let isSource: Bool
    package var ownColumn: String { isSource ? table.sourceColumn : table.destinationColumn }
    package var otherColumn: String { isSource ? table.destinationColumn : table.sourceColumn }
}

/// A uniqueness constraint as it applies to an entity.
package struct ConstraintLayout: Sendable {
    package let declaringEntity: String
    package let entityNumbers: [Int]
    package let properties: [String]
}

/// Every entity's layout for one model and store schema.
public final class ModelLayout: Sendable {
    /// The model.
    public let model: ManagedObjectModel
    /// The store schema.
    public let schema: StoreSchema
    package let byName: [String: EntityLayout]
    /// Indexed by entity number (entity numbers run from 1 without gaps; index 0 is unused).
    package let byNumber: [EntityLayout?]
    /// `byNumber` unretained, for the paths that look a layout up for every row read (see
    /// ``unretainedEntity(number:)``).
    private let unretainedByNumber: [Unmanaged<EntityLayout>?]
    /// A handle on each layout, by entity number, for the IDs made outside any context (see
    /// ``sharedHandle(of:)``).
    private let sharedHandles: [EntityHandle?]

    /// Computes the layouts.
    public init(model: ManagedObjectModel, schema: StoreSchema) {
        self.model = model
        self.schema = schema
        var byName: [String: EntityLayout] = [:]
        var byNumber = [EntityLayout?](repeating: nil, count: (schema.entities.map(\.number).max() ?? 0) + 1)
        for mapping in schema.entities {
            guard let entity = model.entity(named: mapping.name) else { continue }
            let ancestors = model.ancestors(of: entity)
            let rootName = ancestors.last?.name ?? entity.name
            let rootNumber = schema.entity(named: rootName)?.number ?? mapping.number
            let layout = EntityLayout(
                entity: entity, mapping: mapping, rootName: rootName, rootNumber: rootNumber,
                lineage: [entity.name] + ancestors.map(\.name), model: model, schema: schema)
            byName[mapping.name] = layout
            byNumber[mapping.number] = layout
        }
        self.byName = byName
        self.byNumber = byNumber
        unretainedByNumber = byNumber.map { $0.map(Unmanaged.passUnretained) }
        sharedHandles = byNumber.map { $0.map(EntityHandle.init) }
    }

    /// The layout of the named entity.
    public func entity(named name: String) -> EntityLayout? { byName[name] }

    /// The layout of the entity with the given number.
    public func entity(number: Int) -> EntityLayout? { byNumber.indices.contains(number) ? byNumber[number] : nil }

    /// A handle on `layout` for object IDs made outside any context (a context gives its own, see
    /// ``ManagedObjectContext/handle(for:)``): shared by every ID made this way, which are few.
    func sharedHandle(of layout: EntityLayout) -> EntityHandle {
        guard sharedHandles.indices.contains(layout.number), let handle = sharedHandles[layout.number], handle.layout === layout else {
            return EntityHandle(layout)
        }
        return handle
    }

    /// The layout of the entity with the given number, not retained: valid while this model layout
    /// lives (it holds every layout). Reading rows looks a layout up for every row and reference, and
    /// a retain and release of a layout each time is an atomic write to one cache line shared by every
    /// thread reading the coordinator's store: threads fetching at once passed it between cores for
    /// every row. Use the layout through `_withUnsafeGuaranteedRef`, which takes no reference.
    @usableFromInline package func unretainedEntity(number: Int) -> Unmanaged<EntityLayout>? {
        unretainedByNumber.indices.contains(number) ? unretainedByNumber[number] : nil
    }
}
