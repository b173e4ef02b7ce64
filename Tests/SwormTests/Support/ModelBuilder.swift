import CDQIModel

/// Builds the fixture models in code (with CDQIModel's description types), so each test reads its
/// model next to its types. The models are described in `Fixtures/README.md`'s Sworm section.
enum ModelBuilder {
    /// An attribute; optional unless `required`, with an optional default value text.
    static func attribute(_ name: String, _ type: AttributeType, required: Bool = false, defaultValue: String? = nil) -> AttributeDescription {
        var attribute = AttributeDescription(name: name, type: type, isOptional: !required)
        attribute.defaultValueString = defaultValue
        return attribute
    }

    /// An entity with attributes.
    static func entity(_ name: String, _ attributes: [AttributeDescription]) -> EntityDescription {
        var entity = EntityDescription(name: name)
        entity.attributes = attributes
        return entity
    }

    /// A relationship and its inverse, added to both entities of `entities`.
    static func relate(
        _ entities: inout [EntityDescription],
        _ source: String, _ name: String, toMany: Bool = false, ordered: Bool = false, deleteRule: DeleteRule = .nullify,
        _ destination: String, _ inverse: String, inverseToMany: Bool = false
    ) {
        var forward = RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverse, inverseEntityName: destination,
            isToMany: toMany)
        forward.isOptional = true
        forward.isOrdered = ordered
        forward.deleteRule = deleteRule
        var backward = RelationshipDescription(
            name: inverse, destinationEntityName: source, inverseName: name, inverseEntityName: source,
            isToMany: inverseToMany)
        backward.isOptional = true
        for index in entities.indices {
            if entities[index].name == source { entities[index].relationships.append(forward) }
            if entities[index].name == destination { entities[index].relationships.append(backward) }
        }
    }
}
