import CDQIModel

/// Where the run-time layout (`CDQIStore.EntityLayout`) puts an entity's properties: attributes,
/// inherited ones first, each name once; then relationships, skipping names already taken. Generated
/// accessors address properties by these positions, so this must stay the runtime's order (the
/// end-to-end test runs generated classes against the runtime).
struct LayoutOrder {
    /// Attribute name → position in the attribute list.
    private(set) var attributes: [String: Int] = [:]
    /// Relationship name → position in the relationship list.
    private(set) var relationships: [String: Int] = [:]

    init(model: ManagedObjectModel, entity: EntityDescription) {
        var taken: Set<String> = []
        for attribute in model.allAttributes(of: entity) where taken.insert(attribute.name).inserted {
            attributes[attribute.name] = attributes.count
        }
        for relationship in model.allRelationships(of: entity) where taken.insert(relationship.name).inserted {
            relationships[relationship.name] = relationships.count
        }
    }
}
