import CDQIModel

extension StoreSchema {
    /// Maps a model onto Core Data's SQLite layout.
    ///
    /// Rules (coredata-sqlite-format.md): entities are numbered in depth-first pre-order, roots and
    /// siblings sorted by name; each hierarchy shares the root's table; a property's column is `Z` and
    /// its upper-cased name, with `1`, `2`, … appended when names collide (entities in pre-order, then
    /// properties by name); a to-one stores the destination's `Z_PK`, plus its `Z_ENT` when the
    /// destination has sub-entities, plus a `Z_FOK_` order key when the inverse is ordered; a to-many
    /// whose inverse is also to-many (or that has no inverse) uses a join table named by the side with the
    /// lower entity number.
    public init(model: ManagedObjectModel) {
        var builder = Builder(model: model)
        self = builder.build()
    }
}

private struct Builder {
    let model: ManagedObjectModel
    /// Entity names in entity-number order.
    var order: [String] = []
    var numbers: [String: Int] = [:]
    var children: [String: [String]] = [:]

    init(model: ManagedObjectModel) {
        self.model = model
        var roots: [String] = []
        for entity in model.entities {
            if let parent = entity.parentEntityName, model.entity(named: parent) != nil, parent != entity.name {
                children[parent, default: []].append(entity.name)
            } else {
                roots.append(entity.name)
            }
        }
        var visited: Set<String> = []
        func visit(_ name: String) {
            guard visited.insert(name).inserted else { return }
            order.append(name)
            numbers[name] = order.count
            for child in (children[name] ?? []).sorted(by: byEntityName) { visit(child) }
        }
        for root in roots.sorted(by: byEntityName) { visit(root) }
    }

    mutating func build() -> StoreSchema {
        var mappings: [String: EntityMapping] = [:]
        var tables: [TableDefinition] = []
        var joinTables: [JoinTable] = []
        var indexes: [IndexDefinition] = []

        for rootName in order where root(of: rootName) == rootName {
            let tableName = "Z" + rootName.uppercased()
            let hierarchy = preorder(from: rootName)
            var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
            var columnsByEntity: [String: [String: PropertyColumns]] = [:]
            var typed: [(entity: Int, sortKey: Int, property: String, column: ColumnDefinition)] = []

            func claim(_ base: String, suffix: Int? = nil) -> (String, Int) {
                var candidate = suffix.map { base + String($0) } ?? base
                var next = suffix ?? 0
                while used.contains(candidate) {
                    next += 1
                    candidate = base + String(next)
                }
                used.insert(candidate)
                return (candidate, next)
            }

            for (position, entityName) in hierarchy.enumerated() {
                guard let entity = model.entity(named: entityName) else { continue }
                var columns = entity.parentEntityName.flatMap { columnsByEntity[$0] } ?? [:]
                let own: [(String, Bool)] =
                    entity.attributes.map { ($0.name, true) } + entity.relationships.map { ($0.name, false) }
                for (name, isAttribute) in own.sorted(by: { byName($0.0, $1.0) }) {
                    if isAttribute, let attribute = entity.attribute(named: name) {
                        guard !attribute.isTransient, let type = columnType(attribute.type) else { continue }
                        let (column, _) = claim("Z" + name.uppercased())
                        columns[name] = PropertyColumns(value: column)
                        typed.append((position, typeRank(attribute.type), name, ColumnDefinition(name: column, type: type)))
                    } else if let relationship = entity.relationship(named: name), !relationship.isTransient {
                        if relationship.isToMany {
                            var mapping = PropertyColumns()
                            if let table = joinTableFor(relationship, in: entity) {
                                mapping.joinTable = table.name
                                if !joinTables.contains(where: { $0.name == table.name }) {
                                    joinTables.append(table)
                                    indexes.append(
                                        IndexDefinition(
                                            name: "\(table.name)_\(table.destinationColumn)_INDEX", table: table.name,
                                            terms: [table.destinationColumn, table.sourceColumn], isUnique: false))
                                }
                            }
                            columns[name] = mapping
                            continue
                        }
                        let upper = name.uppercased()
                        let (value, suffix) = claim("Z" + upper)
                        let tail = suffix > 0 ? String(suffix) : ""
                        var mapping = PropertyColumns(value: value)
                        typed.append((position, 10, name, ColumnDefinition(name: value, type: "INTEGER")))
                        indexes.append(
                            IndexDefinition(
                                name: "\(tableName)_\(value)_INDEX", table: tableName, terms: [value], isUnique: false))
                        if let destination = model.entity(named: relationship.destinationEntityName),
                            !(children[destination.name] ?? []).isEmpty, let number = numbers[destination.name]
                        {
                            let (column, _) = claim("Z\(number)_\(upper)\(tail)")
                            mapping.entity = column
                            typed.append((position, 11, name, ColumnDefinition(name: column, type: "INTEGER")))
                        }
                        if let inverse = inverse(of: relationship), inverse.isToMany, inverse.isOrdered {
                            let (column, _) = claim("Z_FOK_\(upper)\(tail)")
                            mapping.order = column
                            typed.append((position, 12, name, ColumnDefinition(name: column, type: "INTEGER")))
                        }
                        columns[name] = mapping
                    }
                }
                columnsByEntity[entityName] = columns
            }

            // Core Data's column order: by storage class, then entity (root first), then attributes
            // before to-one keys (integers) or by blob kind, then property name, then companion.
            func orderKey(
                _ item: (entity: Int, sortKey: Int, property: String, column: ColumnDefinition)
            )
                -> (Int, Int, Int)
            {
                let group = item.sortKey < 20 ? (item.sortKey >= 10 ? 1 : 0) : item.sortKey
                return (classRank(item.sortKey), item.entity, group)
            }
            let ordered = typed.sorted {
                let left = orderKey($0), right = orderKey($1)
                if left != right { return left < right }
                if $0.property != $1.property { return byName($0.property, $1.property) }
                return $0.sortKey < $1.sortKey
            }
            tables.append(TableDefinition(name: tableName, rootEntityName: rootName, columns: ordered.map(\.column)))
            if hierarchy.count > 1 {
                indexes.append(
                    IndexDefinition(
                        name: "\(tableName)_Z_ENT_INDEX", table: tableName, terms: ["Z_ENT"], isUnique: false))
            }
            for entityName in hierarchy {
                guard let entity = model.entity(named: entityName), let number = numbers[entityName] else { continue }
                let columns = columnsByEntity[entityName] ?? [:]
                mappings[entityName] = EntityMapping(
                    name: entityName, number: number,
                    superNumber: entity.parentEntityName.flatMap { numbers[$0] } ?? 0,
                    numbersIncludingSubentities: preorder(from: entityName).compactMap { numbers[$0] },
                    tableName: tableName, columns: columns)
                indexes += declaredIndexes(of: entity, table: tableName, columns: columns)
            }
        }
        return StoreSchema(
            entities: order.compactMap { mappings[$0] }, tables: tables, joinTables: joinTables, indexes: indexes)
    }

    // MARK: Join tables

    /// The join table of a to-many relationship, or `nil` when its inverse is a to-one (which holds the key).
    private func joinTableFor(_ relationship: RelationshipDescription, in entity: EntityDescription) -> JoinTable? {
        guard let sourceNumber = numbers[entity.name] else { return nil }
        guard let inverse = inverse(of: relationship), let inverseOwner = owner(of: inverse, in: relationship) else {
            // One-way to-many: Core Data's naming is not documented; this mirrors its pair naming.
            let upper = relationship.name.uppercased()
            let destination = numbers[relationship.destinationEntityName] ?? 0
            return JoinTable(
                name: "Z_\(sourceNumber)\(upper)", sourceColumn: "Z_\(sourceNumber)\(upper)INVERSE",
                destinationColumn: "Z_\(destination)\(upper)",
                orderColumn: relationship.isOrdered ? "Z_FOK_\(destination)\(upper)" : nil,
                sourceEntity: entity.name, relationship: relationship.name, inverseRelationship: nil)
        }
        guard inverse.isToMany, let inverseNumber = numbers[inverseOwner] else { return nil }
        // The side with the lower entity number names the table; for a reflexive pair, the name sorting last.
        let namesTable =
            sourceNumber != inverseNumber
            ? sourceNumber < inverseNumber : !byName(relationship.name, inverse.name)
        let (naming, namingNumber, other, otherNumber) =
            namesTable
            ? (relationship, sourceNumber, inverse, inverseNumber) : (inverse, inverseNumber, relationship, sourceNumber)
        let first = "Z_\(namingNumber)\(other.name.uppercased())"
        var second = "Z_\(otherNumber)\(naming.name.uppercased())"
        // A relationship that is its own inverse (`friends` ↔ `friends`) would name both columns alike;
        // the second takes Core Data's collision suffix (reference §3: later duplicates get `1`).
        if second == first { second += "1" }
        var orderColumn: String?
        if naming.isOrdered {
            orderColumn = "Z_FOK_" + second.dropFirst(2)
        } else if other.isOrdered {
            orderColumn = "Z_FOK_" + first.dropFirst(2)
        }
        return JoinTable(
            name: "Z_\(namingNumber)\(naming.name.uppercased())", sourceColumn: first, destinationColumn: second,
            orderColumn: orderColumn, sourceEntity: namesTable ? entity.name : inverseOwner,
            relationship: naming.name, inverseRelationship: other.name)
    }

    private func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        guard let name = relationship.inverseName, let destination = model.entity(named: relationship.destinationEntityName)
        else { return nil }
        return model.allRelationships(of: destination).first { $0.name == name }
    }

    /// The entity that declares `inverse` (the destination of `relationship`, or one of its ancestors).
    private func owner(of inverse: RelationshipDescription, in relationship: RelationshipDescription) -> String? {
        guard let destination = model.entity(named: relationship.destinationEntityName) else { return nil }
        return ([destination] + model.ancestors(of: destination))
            .first { $0.relationships.contains { $0.name == inverse.name } }?.name
    }

    // MARK: Declared indexes

    private func declaredIndexes(
        of entity: EntityDescription, table: String, columns: [String: PropertyColumns]
    ) -> [IndexDefinition] {
        var indexes: [IndexDefinition] = []
        func terms(_ properties: [String], ascending: [Bool]? = nil) -> [String]? {
            var result: [String] = []
            for (position, property) in properties.enumerated() {
                guard let column = columns[property]?.value else { return nil }
                let direction = (ascending?[position] ?? true) ? "ASC" : "DESC"
                result.append("\(column) COLLATE BINARY \(direction)")
            }
            return result.isEmpty ? nil : result
        }
        for attribute in entity.attributes where attribute.isIndexed && !attribute.isTransient {
            if let column = columns[attribute.name]?.value {
                indexes.append(
                    IndexDefinition(
                        name: "\(table)_\(column)_INDEX", table: table, terms: [column], isUnique: false))
            }
        }
        for index in entity.fetchIndexes {
            let properties = index.elements.compactMap(\.property)
            guard properties.count == index.elements.count,
                let terms = terms(properties, ascending: index.elements.map(\.isAscending))
            else { continue }
            indexes.append(
                IndexDefinition(
                    name: "Z_\(entity.name)_\(index.name)", table: table, terms: terms, isUnique: false))
        }
        for (position, index) in entity.compoundIndexes.enumerated() {
            guard let terms = terms(index.elements.compactMap(\.property)) else { continue }
            indexes.append(
                IndexDefinition(
                    name: "Z_\(entity.name)_compoundIndex" + (position == 0 ? "" : String(position)), table: table,
                    terms: terms, isUnique: false))
        }
        for constraint in entity.uniquenessConstraints {
            guard let terms = terms(constraint.properties) else { continue }
            indexes.append(
                IndexDefinition(
                    name: "Z_\(entity.name)_UNIQUE_" + constraint.properties.joined(separator: "_"), table: table,
                    terms: terms, isUnique: true))
        }
        return indexes
    }

    // MARK: Helpers

    private func root(of name: String) -> String {
        var current = name
        var seen: Set<String> = [name]
        while let parent = model.entity(named: current)?.parentEntityName, numbers[parent] != nil,
            seen.insert(parent).inserted
        {
            current = parent
        }
        return current
    }

    private func preorder(from name: String) -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        func visit(_ current: String) {
            guard seen.insert(current).inserted else { return }
            result.append(current)
            for child in (children[current] ?? []).sorted(by: byEntityName) { visit(child) }
        }
        visit(name)
        return result
    }

    /// The declared SQL type of an attribute's column, or `nil` for types with no column.
    private func columnType(_ type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .date: "TIMESTAMP"
        case .double, .float: "FLOAT"
        case .decimal: "DECIMAL"
        case .string, .uri: "VARCHAR"
        case .uuid, .transformable, .binaryData, .objectID: "BLOB"
        case .undefined, .composite: nil
        }
    }

    /// Sort keys for column order: 0 integers, 10–12 to-one columns, 20 reals, 30 decimals, 40 text,
    /// 50–52 blobs (UUID, Transformable, Binary).
    private func typeRank(_ type: AttributeType) -> Int {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: 0
        case .date, .double, .float: 20
        case .decimal: 30
        case .string, .uri: 40
        case .uuid: 50
        case .transformable, .objectID: 51
        case .binaryData: 52
        case .undefined, .composite: 60
        }
    }

    private func classRank(_ key: Int) -> Int {
        switch key {
        case ..<20: 0
        case ..<30: 1
        case ..<40: 2
        case ..<50: 3
        default: 4
        }
    }
}

/// Property names sort in byte order (`compare:` for the ASCII names of models).
private func byName(_ left: String, _ right: String) -> Bool {
    left.utf8.lexicographicallyPrecedes(right.utf8)
}

/// Entity numbers follow a case-insensitive order (SyncableSettingsMetadata is 1, SyncFeatureEntity 2,
/// in an Apple-written store), with byte order breaking ties.
private func byEntityName(_ left: String, _ right: String) -> Bool {
    let (l, r) = (left.lowercased(), right.lowercased())
    return l == r ? byName(left, right) : byName(l, r)
}
