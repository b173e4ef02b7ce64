/// Checks a parsed model for the inconsistencies Xcode's model compiler refuses, and reports all of them.
///
/// The checks: duplicate entity names; missing or cyclic parent entities; property names repeated
/// within an entity or along its inheritance chain; relationships to missing entities; inverses that do
/// not exist or do not point back; non-transient attributes without a type; composites, constraints,
/// indexes, templates and configurations that name something missing; impossible counts.
public struct ModelValidator: Sendable {
    /// Creates a validator.
    public init() {}

    /// Every problem in the model, in declaration order. An empty result means the model is usable.
    public func problems(in model: ManagedObjectModel) -> [ModelDiagnostic] {
        var problems: [ModelDiagnostic] = []
        func report(_ message: String, _ location: SourceLocation?) {
            problems.append(ModelDiagnostic(.error, message, at: location))
        }

        var seenEntities: Set<String> = []
        for entity in model.entities where !seenEntities.insert(entity.name).inserted {
            report("entity '\(entity.name)' is declared more than once", entity.location)
        }

        for entity in model.entities {
            checkInheritance(of: entity, in: model, report: report)
            checkPropertyNames(of: entity, in: model, report: report)
            for attribute in entity.attributes {
                checkAttribute(attribute, of: entity.name, in: model, report: report)
            }
            for relationship in entity.relationships {
                checkRelationship(relationship, of: entity, in: model, report: report)
            }
            for property in entity.fetchedProperties where model.entity(named: property.fetchRequest.entityName) == nil {
                report(
                    "fetched property '\(entity.name).\(property.name)' fetches unknown entity '\(property.fetchRequest.entityName)'",
                    property.location)
            }
            checkIndexesAndConstraints(of: entity, in: model, report: report)
        }

        for composite in model.composites {
            for attribute in composite.attributes {
                checkAttribute(attribute, of: "composite \(composite.name)", in: model, report: report)
            }
        }
        for template in model.fetchRequestTemplates where model.entity(named: template.entityName) == nil {
            report("fetch request '\(template.name)' fetches unknown entity '\(template.entityName)'", template.location)
        }
        for configuration in model.configurations {
            for member in configuration.memberEntityNames where model.entity(named: member) == nil {
                report("configuration '\(configuration.name)' lists unknown entity '\(member)'", configuration.location)
            }
        }
        return problems
    }

    private func checkInheritance(
        of entity: EntityDescription, in model: ManagedObjectModel, report: (String, SourceLocation?) -> Void
    ) {
        guard let parentName = entity.parentEntityName else { return }
        guard model.entity(named: parentName) != nil else {
            report("entity '\(entity.name)' has unknown parent entity '\(parentName)'", entity.location)
            return
        }
        var seen: Set<String> = [entity.name]
        var next: String? = parentName
        while let name = next, let parent = model.entity(named: name) {
            if !seen.insert(name).inserted {
                report("entity '\(entity.name)' inherits from itself (the parent chain loops through '\(name)')", entity.location)
                return
            }
            next = parent.parentEntityName
        }
    }

    private func checkPropertyNames(
        of entity: EntityDescription, in model: ManagedObjectModel, report: (String, SourceLocation?) -> Void
    ) {
        var declared: [String: String] = [:]  // name -> where it was first declared
        for ancestor in model.ancestors(of: entity).reversed() {
            for name in propertyNames(of: ancestor) where declared[name] == nil {
                declared[name] = ancestor.name
            }
        }
        let own: [(String, SourceLocation?)] =
            entity.attributes.map { ($0.name, $0.location) } + entity.relationships.map { ($0.name, $0.location) }
            + entity.fetchedProperties.map { ($0.name, $0.location) }
        for (name, location) in own {
            if let owner = declared[name] {
                if owner == entity.name {
                    report("entity '\(entity.name)' declares property '\(name)' more than once", location)
                } else {
                    report("entity '\(entity.name)' redeclares property '\(name)' inherited from '\(owner)'", location)
                }
            } else {
                declared[name] = entity.name
            }
        }
    }

    private func propertyNames(of entity: EntityDescription) -> [String] {
        entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
    }

    private func checkAttribute(
        _ attribute: AttributeDescription, of owner: String, in model: ManagedObjectModel,
        report: (String, SourceLocation?) -> Void
    ) {
        if attribute.type == .undefined && !attribute.isTransient {
            report(
                "attribute '\(owner).\(attribute.name)' has no type; only transient attributes may be Undefined",
                attribute.location)
        }
        if attribute.type == .composite {
            if let name = attribute.compositeName {
                if model.composite(named: name) == nil {
                    report("attribute '\(owner).\(attribute.name)' uses unknown composite '\(name)'", attribute.location)
                }
            } else {
                report("Composite attribute '\(owner).\(attribute.name)' names no composite", attribute.location)
            }
        }
        if attribute.isDerived && attribute.derivationExpression == nil {
            report("derived attribute '\(owner).\(attribute.name)' has no derivation expression", attribute.location)
        }
    }

    private func checkRelationship(
        _ relationship: RelationshipDescription, of entity: EntityDescription, in model: ManagedObjectModel,
        report: (String, SourceLocation?) -> Void
    ) {
        let label = "relationship '\(entity.name).\(relationship.name)'"
        if let minimum = relationship.minCount, minimum < 0 {
            report("\(label) has a negative minCount \(minimum)", relationship.location)
        }
        if let maximum = relationship.maxCount, maximum < 0 {
            report("\(label) has a negative maxCount \(maximum)", relationship.location)
        }
        if let minimum = relationship.minCount, let maximum = relationship.maxCount, maximum > 0, minimum > maximum {
            report("\(label) has minCount \(minimum) above maxCount \(maximum)", relationship.location)
        }
        if relationship.isOrdered && !relationship.isToMany {
            report("\(label) is ordered but not to-many", relationship.location)
        }
        guard let destination = model.entity(named: relationship.destinationEntityName) else {
            report("\(label) points to unknown entity '\(relationship.destinationEntityName)'", relationship.location)
            return
        }
        guard let inverseName = relationship.inverseName else {
            if relationship.inverseEntityName != nil {
                report("\(label) names an inverse entity but no inverse relationship", relationship.location)
            }
            return
        }
        if let inverseEntity = relationship.inverseEntityName, inverseEntity != destination.name {
            report(
                "\(label) has inverse entity '\(inverseEntity)' but destination '\(destination.name)'", relationship.location)
            return
        }
        guard let inverse = model.allRelationships(of: destination).first(where: { $0.name == inverseName }) else {
            report(
                "\(label) has inverse '\(inverseName)', which entity '\(destination.name)' does not have",
                relationship.location)
            return
        }
        // The inverse must lead back to this entity (or one of its ancestors) and name this relationship.
        let acceptable = Set([entity.name] + model.ancestors(of: entity).map(\.name))
        if !acceptable.contains(inverse.destinationEntityName) {
            report(
                "\(label) has inverse '\(destination.name).\(inverseName)', which points to '\(inverse.destinationEntityName)', not back to '\(entity.name)'",
                relationship.location)
        } else if let back = inverse.inverseName, back != relationship.name {
            report(
                "\(label) has inverse '\(destination.name).\(inverseName)', whose own inverse is '\(back)', not '\(relationship.name)'",
                relationship.location)
        }
    }

    private func checkIndexesAndConstraints(
        of entity: EntityDescription, in model: ManagedObjectModel, report: (String, SourceLocation?) -> Void
    ) {
        let known = Set(
            model.allAttributes(of: entity).map(\.name) + model.allRelationships(of: entity).map(\.name))
        for index in entity.fetchIndexes + entity.compoundIndexes {
            let label = index.name.isEmpty ? "a compound index" : "fetch index '\(index.name)'"
            for property in index.elements.compactMap(\.property) where !known.contains(property) {
                report("\(label) of entity '\(entity.name)' names unknown property '\(property)'", index.location)
            }
        }
        for constraint in entity.uniquenessConstraints {
            for property in constraint.properties where !known.contains(property) {
                report(
                    "a uniqueness constraint of entity '\(entity.name)' names unknown property '\(property)'",
                    constraint.location)
            }
        }
    }
}
