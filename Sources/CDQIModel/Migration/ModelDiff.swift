/// The differences between two versions of a model, found the way Core Data infers a mapping: entities
/// and properties are matched by their canonical name, the renaming identifier (`elementID`) when set,
/// else the name (reference `coredata-migration.md` §2.2); everything unmatched is added or removed.
///
/// ```swift
/// let diff = ModelDiff(from: version1, to: version2)
/// diff.changes.map(\.description)   // ["rename attribute Item.addedAt → createdAt", …]
/// diff.refusals                      // the changes a lightweight migration cannot carry out
/// ```
public struct ModelDiff: Sendable {
    /// The source model.
    public var source: ManagedObjectModel
    /// The destination model.
    public var destination: ManagedObjectModel
    /// For each destination entity that existed in the source, the source entity's name.
    public var entityMatches: [String: String]
    /// For each destination entity that existed in the source, its destination properties (inherited ones
    /// included) that existed there, with the source property's name.
    public var propertyMatches: [String: [String: String]]
    /// Every change, entity by entity in destination order, then the removed entities.
    public var changes: [ModelChange]

    /// The changes a lightweight migration cannot carry out; empty when the migration can proceed.
    public var refusals: [ModelChange] { changes.filter { !$0.isInferred } }

    /// Compares two versions of a model.
    public init(from source: ManagedObjectModel, to destination: ManagedObjectModel) {
        self.source = source
        self.destination = destination
        entityMatches = Self.matchEntities(source: source, destination: destination)
        propertyMatches = [:]
        changes = []
        var claimed: [String: [String]] = [:]
        for (target, original) in entityMatches { claimed[original, default: []].append(target) }
        for entity in destination.entities {
            guard let sourceName = entityMatches[entity.name], let original = source.entity(named: sourceName) else {
                changes.append(ModelChange(entity: entity.name, kind: .entityAdded))
                continue
            }
            if (claimed[sourceName]?.count ?? 0) > 1 {
                changes.append(
                    ModelChange(
                        entity: entity.name, kind: .entityRenamed(from: sourceName),
                        support: .notInferable("several entities claim \(sourceName)")))
                continue
            }
            if sourceName != entity.name {
                changes.append(ModelChange(entity: entity.name, kind: .entityRenamed(from: sourceName)))
            }
            compareParents(original, entity)
            if original.versionHashModifier != entity.versionHashModifier || original.isAbstract != entity.isAbstract {
                changes.append(ModelChange(entity: entity.name, kind: .hashModifierChanged))
            }
            compareProperties(original, entity)
            if original.uniquenessConstraints.map(\.properties) != entity.uniquenessConstraints.map(\.properties) {
                changes.append(ModelChange(entity: entity.name, kind: .uniquenessConstraintsChanged))
            }
        }
        let matchedSources = Set(entityMatches.values)
        for entity in source.entities where !matchedSources.contains(entity.name) {
            changes.append(ModelChange(entity: entity.name, kind: .entityRemoved))
        }
        refuseMergedHierarchies()
    }

    /// Destination entity name → source entity name: canonical name against canonical name, then the
    /// destination's canonical name against the source's plain name, then plain names.
    static func matchEntities(source: ManagedObjectModel, destination: ManagedObjectModel) -> [String: String] {
        var matches: [String: String] = [:]
        var bySourceKey: [String: String] = [:]
        for entity in source.entities { bySourceKey[entity.renamingIdentifier ?? entity.name] = entity.name }
        let sourceNames = Set(source.entities.map(\.name))
        for entity in destination.entities {
            let key = entity.renamingIdentifier ?? entity.name
            if let found = bySourceKey[key] {
                matches[entity.name] = found
            } else if sourceNames.contains(key) {
                matches[entity.name] = key
            } else if sourceNames.contains(entity.name) {
                matches[entity.name] = entity.name
            }
        }
        return matches
    }

    /// A new parent (an added entity, or another entity of the same hierarchy), no parent, or a parent
    /// inserted in between: Core Data infers all of these, since the objects stay in one table or leave
    /// it for their own. Joining two source hierarchies is refused afterwards
    /// (``refuseMergedHierarchies()``).
    private mutating func compareParents(_ original: EntityDescription, _ entity: EntityDescription) {
        let mappedParent = entity.parentEntityName.flatMap { entityMatches[$0] }
        guard mappedParent != original.parentEntityName || (entity.parentEntityName == nil) != (original.parentEntityName == nil) else {
            return
        }
        changes.append(
            ModelChange(entity: entity.name, kind: .parentChanged(from: original.parentEntityName, to: entity.parentEntityName)))
    }

    /// Core Data cannot merge entity hierarchies: the objects of one destination hierarchy (one table)
    /// must all come from one source hierarchy ("Cannot merge multiple root entity source tables into one
    /// destination entity root table"). Every parent change that brings a second source hierarchy into a
    /// destination hierarchy is refused, naming the hierarchies.
    private mutating func refuseMergedHierarchies() {
        // Destination root → the source roots of the entities in its hierarchy that existed before.
        var sourceRoots: [String: Set<String>] = [:]
        for entity in destination.entities {
            guard let sourceName = entityMatches[entity.name], let original = source.entity(named: sourceName) else { continue }
            sourceRoots[Self.rootName(of: entity, in: destination), default: []].insert(Self.rootName(of: original, in: source))
        }
        var refusedRoots: Set<String> = []
        for index in changes.indices {
            guard case .parentChanged = changes[index].kind, let entity = destination.entity(named: changes[index].entity) else { continue }
            let root = Self.rootName(of: entity, in: destination)
            guard let roots = sourceRoots[root], roots.count > 1 else { continue }
            refusedRoots.insert(root)
            changes[index].support = .notInferable(
                "it merges the hierarchies of \(Self.list(roots)) into \(root)'s; "
                    + "Core Data cannot merge entity hierarchies")
        }
        // A merge always moves some entity to a new parent; should none be found, the root names it.
        for (root, roots) in sourceRoots.sorted(by: { $0.key < $1.key }) where roots.count > 1 && !refusedRoots.contains(root) {
            changes.append(
                ModelChange(
                    entity: root, kind: .parentChanged(from: nil, to: nil),
                    support: .notInferable(
                        "its hierarchy merges those of \(Self.list(roots)); Core Data cannot merge entity hierarchies")))
        }
    }

    /// Sorted names in words: `A and B`, `A, B and C`.
    static func list(_ names: Set<String>) -> String {
        let sorted = names.sorted()
        guard let last = sorted.last, sorted.count > 1 else { return sorted.first ?? "" }
        return sorted.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The name of the root of the entity's hierarchy.
    static func rootName(of entity: EntityDescription, in model: ManagedObjectModel) -> String {
        model.ancestors(of: entity).last?.name ?? entity.name
    }

    private enum Property {
        case attribute(AttributeDescription)
        case relationship(RelationshipDescription)

        var name: String {
            switch self {
            case .attribute(let attribute): attribute.name
            case .relationship(let relationship): relationship.name
            }
        }

        var key: String {
            switch self {
            case .attribute(let attribute): attribute.renamingIdentifier ?? attribute.name
            case .relationship(let relationship): relationship.renamingIdentifier ?? relationship.name
            }
        }
    }

    private static func storedProperties(of entity: EntityDescription, in model: ManagedObjectModel) -> [Property] {
        model.allAttributes(of: entity).filter { !$0.isTransient }.map(Property.attribute)
            + model.allRelationships(of: entity).filter { !$0.isTransient }.map(Property.relationship)
    }

    private mutating func compareProperties(_ original: EntityDescription, _ entity: EntityDescription) {
        let before = Self.storedProperties(of: original, in: source)
        let after = Self.storedProperties(of: entity, in: destination)
        var byKey: [String: Property] = [:]
        var byName: [String: Property] = [:]
        for property in before {
            byKey[property.key] = property
            byName[property.name] = property
        }
        var matches: [String: String] = [:]
        var used: Set<String> = []
        // Only the declaring entity reports a change to an inherited property.
        let declared = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
        for property in after {
            let found = byKey[property.key] ?? byName[property.key] ?? byName[property.name]
            let reports = declared.contains(property.name)
            guard let found, !used.contains(found.name) else {
                if reports { changes.append(added(property, in: entity.name)) }
                continue
            }
            used.insert(found.name)
            matches[property.name] = found.name
            if reports { compare(found, property, in: entity.name) }
        }
        propertyMatches[entity.name] = matches
        // An entity reports the removal of what it declared and, when its parent changed, of what it
        // inherited from an ancestor that is no longer one (it left that hierarchy, or the ancestor was
        // removed): no other entity reports that, and its sub-entities, which lose the same, do not repeat it.
        let keptAncestors = Set(destination.ancestors(of: entity).compactMap { entityMatches[$0.name] })
        let parentChanged = entity.parentEntityName.flatMap { entityMatches[$0] } != original.parentEntityName
        let reported = [original] + (parentChanged ? source.ancestors(of: original).filter { !keptAncestors.contains($0.name) } : [])
        let originalDeclared = Set(reported.flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) })
        for property in before where !used.contains(property.name) && originalDeclared.contains(property.name) {
            switch property {
            case .attribute: changes.append(ModelChange(entity: entity.name, property: property.name, kind: .attributeRemoved))
            case .relationship: changes.append(ModelChange(entity: entity.name, property: property.name, kind: .relationshipRemoved))
            }
        }
    }

    private func added(_ property: Property, in entity: String) -> ModelChange {
        switch property {
        case .attribute: ModelChange(entity: entity, property: property.name, kind: .attributeAdded)
        case .relationship: ModelChange(entity: entity, property: property.name, kind: .relationshipAdded)
        }
    }

    private mutating func compare(_ old: Property, _ new: Property, in entity: String) {
        switch (old, new) {
        case (.attribute(let before), .attribute(let after)):
            compareAttributes(before, after, in: entity)
        case (.relationship(let before), .relationship(let after)):
            compareRelationships(before, after, in: entity)
        default:
            changes.append(
                ModelChange(
                    entity: entity, property: new.name, kind: .kindChanged,
                    support: .notInferable("Core Data does not turn attributes into relationships or back")))
        }
    }

    private mutating func compareAttributes(_ before: AttributeDescription, _ after: AttributeDescription, in entity: String) {
        let name = after.name
        if before.name != after.name {
            changes.append(ModelChange(entity: entity, property: name, kind: .attributeRenamed(from: before.name)))
        }
        if before.type != after.type {
            let support: ModelChange.Support
            if before.type.isInteger && after.type.isNumeric {
                support = .inferred
            } else if before.type.isNumeric && after.type.isNumeric {
                support = .notImplemented("converting floating-point or decimal values")
            } else {
                support = .notInferable("only numeric conversions are inferred")
            }
            changes.append(ModelChange(entity: entity, property: name, kind: .typeChanged(from: before.type, to: after.type), support: support))
        }
        if before.isOptional && !after.isOptional {
            let value = after.defaultValueString ?? after.defaultDateTimeInterval.map { "\($0)" }
            changes.append(ModelChange(entity: entity, property: name, kind: .madeRequired(defaultValue: value)))
        } else if !before.isOptional && after.isOptional {
            changes.append(ModelChange(entity: entity, property: name, kind: .madeOptional))
        }
        if before.versionHashModifier != after.versionHashModifier
            || before.preservesValueInHistoryOnDeletion != after.preservesValueInHistoryOnDeletion
        {
            changes.append(ModelChange(entity: entity, property: name, kind: .hashModifierChanged))
        }
        if before.isDerived != after.isDerived || (after.isDerived && before.derivationExpression != after.derivationExpression) {
            changes.append(
                ModelChange(
                    entity: entity, property: name, kind: .hashModifierChanged,
                    support: .notImplemented("derived attributes are maintained by Core Data's triggers")))
        }
        if before.allowsExternalBinaryDataStorage != after.allowsExternalBinaryDataStorage {
            changes.append(
                ModelChange(
                    entity: entity, property: name, kind: .hashModifierChanged,
                    support: .notImplemented("moving binary data to or from external storage")))
        }
    }

    private mutating func compareRelationships(
        _ before: RelationshipDescription, _ after: RelationshipDescription, in entity: String
    ) {
        let name = after.name
        if before.name != after.name {
            changes.append(ModelChange(entity: entity, property: name, kind: .relationshipRenamed(from: before.name)))
        }
        if entityMatches[after.destinationEntityName] != before.destinationEntityName {
            // Retargeted to an ancestor of the old destination (typically a new parent): every object
            // linked to is still of the destination entity, so every link is kept.
            let oldDestination = entityMatches.first { $0.value == before.destinationEntityName }?.key
            let generalized =
                oldDestination.flatMap { destination.entity(named: $0) }
                .map { destination.ancestors(of: $0).contains { $0.name == after.destinationEntityName } } ?? false
            changes.append(
                ModelChange(
                    entity: entity, property: name,
                    kind: .destinationChanged(from: before.destinationEntityName, to: after.destinationEntityName),
                    support: generalized
                        ? .inferred : .notInferable("the destination is not the old destination, its renamed self or one of its ancestors")))
        }
        let inverseMatch = after.inverseName.flatMap { inverse in
            destination.entity(named: after.destinationEntityName).flatMap { _ in
                propertyMatches(forEntity: after.destinationEntityName, property: inverse)
            }
        }
        if (before.inverseName == nil) != (after.inverseName == nil)
            || (after.inverseName != nil && inverseMatch != nil && inverseMatch != before.inverseName)
        {
            changes.append(
                ModelChange(
                    entity: entity, property: name, kind: .inverseChanged(from: before.inverseName, to: after.inverseName),
                    support: .notImplemented("pairing a relationship with another inverse")))
        }
        if before.isToMany != after.isToMany {
            // Links move between a foreign key and a join table; both ends must know their inverse.
            let paired = before.inverseName != nil && after.inverseName != nil
            changes.append(
                ModelChange(
                    entity: entity, property: name, kind: .cardinalityChanged(toMany: after.isToMany),
                    support: paired ? .inferred : .notImplemented("a relationship without an inverse changing cardinality")))
        }
        if before.isOrdered != after.isOrdered {
            changes.append(ModelChange(entity: entity, property: name, kind: .orderingChanged(ordered: after.isOrdered)))
        }
        if before.isOptional && !after.isOptional {
            changes.append(ModelChange(entity: entity, property: name, kind: .madeRequired(defaultValue: nil)))
        } else if !before.isOptional && after.isOptional {
            changes.append(ModelChange(entity: entity, property: name, kind: .madeOptional))
        }
        if before.versionHashModifier != after.versionHashModifier || before.minCount != after.minCount
            || (before.isToMany == after.isToMany && before.maxCount != after.maxCount)
        {
            changes.append(ModelChange(entity: entity, property: name, kind: .hashModifierChanged))
        }
    }

    /// The source name of a destination property of a destination entity, matched by canonical name
    /// (without recording anything): used to compare inverses.
    private func propertyMatches(forEntity name: String, property: String) -> String? {
        guard let sourceName = entityMatches[name], let original = source.entity(named: sourceName),
            let entity = destination.entity(named: name)
        else { return nil }
        let after = Self.storedProperties(of: entity, in: destination).first { $0.name == property }
        guard let after else { return nil }
        let before = Self.storedProperties(of: original, in: source)
        return
            (before.first { $0.key == after.key } ?? before.first { $0.name == after.key }
            ?? before.first { $0.name == after.name })?.name
    }
}
