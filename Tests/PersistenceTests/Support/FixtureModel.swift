import CDQIModel

/// The models of the Persistence tests, built in code.
enum FixtureModel {
    /// Upstream's test model: `TestEntity` {name String, intProperty Integer 32; to-many `childs` ↔
    /// `Child.owner`}, `Child` {intProperty Integer 32; to-one `owner`, required}; and the seed text's
    /// `Event` {timeStamp Date, stringProperty1 String, property1 Integer 64}.
    static var test: ManagedObjectModel {
        var testEntity = EntityDescription(name: "TestEntity")
        testEntity.attributes = [
            AttributeDescription(name: "intProperty", type: .integer32, isOptional: true),
            AttributeDescription(name: "name", type: .string, isOptional: true),
        ]
        var childs = RelationshipDescription(
            name: "childs", destinationEntityName: "Child", inverseName: "owner", inverseEntityName: "Child", isToMany: true)
        childs.isOptional = true
        testEntity.relationships = [childs]

        var child = EntityDescription(name: "Child")
        child.attributes = [AttributeDescription(name: "intProperty", type: .integer32, isOptional: true)]
        var owner = RelationshipDescription(
            name: "owner", destinationEntityName: "TestEntity", inverseName: "childs", inverseEntityName: "TestEntity",
            isToMany: false)
        owner.isOptional = false
        child.relationships = [owner]

        var event = EntityDescription(name: "Event")
        event.attributes = [
            AttributeDescription(name: "property1", type: .integer64, isOptional: true),
            AttributeDescription(name: "stringProperty1", type: .string, isOptional: true),
            AttributeDescription(name: "timeStamp", type: .date, isOptional: true),
        ]
        return ManagedObjectModel(entities: [testEntity, child, event])
    }
}
