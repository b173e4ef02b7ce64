import CDQIModel
import Testing

/// The validator on models built in code: each inconsistency is found, and a sound model has none.
@Suite("Model validation")
struct ModelValidatorTests {
    private func problems(
        _ entities: [EntityDescription], configure: (inout ManagedObjectModel) -> Void = { _ in }
    )
        -> [String]
    {
        var model = ManagedObjectModel(entities: entities)
        configure(&model)
        return ModelValidator().problems(in: model).map(\.message)
    }

    private func entity(
        _ name: String, parent: String? = nil, attributes: [String] = [], relationships: [RelationshipDescription] = []
    ) -> EntityDescription {
        var entity = EntityDescription(name: name, representedClassName: name, parentEntityName: parent)
        entity.attributes = attributes.map { AttributeDescription(name: $0, type: .string) }
        entity.relationships = relationships
        return entity
    }

    @Test("a sound model with inheritance and inverses has no problems")
    func soundModel() {
        let toMany = RelationshipDescription(
            name: "members", destinationEntityName: "Person", inverseName: "department", inverseEntityName: "Person",
            isToMany: true)
        let toOne = RelationshipDescription(
            name: "department", destinationEntityName: "Department", inverseName: "members",
            inverseEntityName: "Department")
        // `staff` finds its inverse among Employee's inherited relationships; that one is one-way.
        let staff = RelationshipDescription(
            name: "staff", destinationEntityName: "Employee", inverseName: "mentor", inverseEntityName: "Employee",
            isToMany: true)
        let mentor = RelationshipDescription(name: "mentor", destinationEntityName: "Department")
        #expect(
            problems([
                entity("Person", attributes: ["name"], relationships: [toOne, mentor]),
                entity("Employee", parent: "Person", attributes: ["salary"]),
                entity("Department", relationships: [toMany, staff]),
            ]).isEmpty)
    }

    @Test("duplicate entities, unknown parents and inheritance cycles")
    func entitiesAndInheritance() {
        #expect(problems([entity("A"), entity("A")]) == ["entity 'A' is declared more than once"])
        #expect(problems([entity("A", parent: "Nope")]) == ["entity 'A' has unknown parent entity 'Nope'"])
        #expect(
            problems([entity("A", parent: "B"), entity("B", parent: "A")]) == [
                "entity 'A' inherits from itself (the parent chain loops through 'A')",
                "entity 'B' inherits from itself (the parent chain loops through 'B')",
            ])
    }

    @Test("inverses that are missing, point elsewhere, or name another relationship")
    func inverses() {
        let toB = RelationshipDescription(name: "b", destinationEntityName: "B", inverseName: "a", inverseEntityName: "B")
        #expect(
            problems([entity("A", relationships: [toB]), entity("B")]) == [
                "relationship 'A.b' has inverse 'a', which entity 'B' does not have"
            ])
        let wrongEntity = RelationshipDescription(
            name: "b", destinationEntityName: "B", inverseName: "a", inverseEntityName: "C")
        #expect(
            problems([entity("A", relationships: [wrongEntity]), entity("B"), entity("C")]) == [
                "relationship 'A.b' has inverse entity 'C' but destination 'B'"
            ])
        let toC = RelationshipDescription(name: "a", destinationEntityName: "C", inverseName: nil)
        #expect(
            problems([entity("A", relationships: [toB]), entity("B", relationships: [toC]), entity("C")]) == [
                "relationship 'A.b' has inverse 'B.a', which points to 'C', not back to 'A'"
            ])
        let backElsewhere = RelationshipDescription(
            name: "a", destinationEntityName: "A", inverseName: "other", inverseEntityName: "A")
        let other = RelationshipDescription(name: "other", destinationEntityName: "B", inverseName: "a", inverseEntityName: "B")
        #expect(
            problems([entity("A", relationships: [toB, other]), entity("B", relationships: [backElsewhere])]) == [
                "relationship 'A.b' has inverse 'B.a', whose own inverse is 'other', not 'b'"
            ])
    }

    @Test("counts, ordering and untyped attributes")
    func countsAndTypes() {
        var counted = RelationshipDescription(name: "b", destinationEntityName: "B")
        counted.minCount = 3
        counted.maxCount = 2
        counted.isOrdered = true
        var untyped = entity("B")
        untyped.attributes = [AttributeDescription(name: "x", type: .undefined)]
        var transient = AttributeDescription(name: "y", type: .undefined)
        transient.isTransient = true
        untyped.attributes.append(transient)
        #expect(
            problems([entity("A", relationships: [counted]), untyped]) == [
                "relationship 'A.b' has minCount 3 above maxCount 2",
                "relationship 'A.b' is ordered but not to-many",
                "attribute 'B.x' has no type; only transient attributes may be Undefined",
            ])
    }

    @Test("composites, templates, configurations, indexes and constraints that name missing things")
    func references() {
        var holder = entity("A", attributes: ["name"])
        var composite = AttributeDescription(name: "c", type: .composite)
        composite.compositeName = "Missing"
        holder.attributes.append(composite)
        holder.fetchIndexes = [FetchIndex(name: "byGhost", elements: [FetchIndex.Element(property: "ghost")])]
        holder.uniquenessConstraints = [UniquenessConstraint(properties: ["name", "phantom"])]
        let found = problems([holder]) { model in
            model.fetchRequestTemplates = [FetchRequestTemplate(name: "All", entityName: "Nobody")]
            model.configurations = [ModelConfiguration(name: "Main", memberEntityNames: ["A", "Zed"])]
        }
        #expect(
            found == [
                "attribute 'A.c' uses unknown composite 'Missing'",
                "fetch index 'byGhost' of entity 'A' names unknown property 'ghost'",
                "a uniqueness constraint of entity 'A' names unknown property 'phantom'",
                "fetch request 'All' fetches unknown entity 'Nobody'",
                "configuration 'Main' lists unknown entity 'Zed'",
            ])
    }
}
