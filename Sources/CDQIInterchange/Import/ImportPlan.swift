import CDQIModel

/// A document checked against the model, in a form whose size is a few words per object and reference:
/// the objects to insert in document order (their values are read again from the document when they are
/// inserted) and their relationships resolved to positions in ``objects``.
struct ImportPlan {
    /// What the plan knows of an entity with objects in the document.
    struct Entity {
        var description: EntityDescription
        /// Its attributes and relationships, inherited ones included, in the model's order.
        var attributes: [AttributeDescription]
        var relationships: [RelationshipDescription]
        var attributeIndex: [String: Int]
        var relationshipIndex: [String: Int]

        init(_ description: EntityDescription, model: ManagedObjectModel) {
            self.description = description
            attributes = model.allAttributes(of: description)
            relationships = model.allRelationships(of: description)
            attributeIndex = Dictionary(attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            relationshipIndex = Dictionary(relationships.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// One object of the document.
    struct Object {
        /// Its entity: a position in ``ImportPlan/entities``.
        var entity: Int
        /// Its position in its entity's list, from 1.
        var position: Int
        /// Its `_id`, when it has a valid one.
        var id: String?
        /// Its first relationship statement in ``ImportPlan/statements`` (the next object's first one
        /// ends its run).
        var firstStatement: Int
    }

    /// One relationship of an object as the document states it.
    struct Statement {
        /// Its destinations: a run of ``ImportPlan/destinations`` (empty for a to-one set to `null`).
        var start: Int
        var count: Int
        /// The relationship: a position in its entity's ``Entity/relationships`` (32 bits keep a
        /// statement in 24 bytes; an entity has far fewer relationships).
        private var relationshipPosition: Int32
        var isToMany: Bool

        init(relationship: Int, start: Int, count: Int, isToMany: Bool) {
            self.start = start
            self.count = count
            relationshipPosition = Int32(truncatingIfNeeded: relationship)
            self.isToMany = isToMany
        }

        /// The relationship: a position in its entity's ``Entity/relationships``.
        var relationship: Int { Int(relationshipPosition) }
    }

    /// One entity's list in the document.
    struct List {
        /// Its entity: a position in ``ImportPlan/entities``.
        var entity: Int
        /// The document offset of its `[`.
        var offset: Int
        /// Its objects in ``ImportPlan/objects``.
        var objects: Range<Int>
    }

    var entities: [Entity] = []
    /// The lists whose objects the plan holds, in document order.
    var lists: [List] = []
    var objects: [Object] = []
    var statements: [Statement] = []
    /// The destinations of every statement, as positions in ``objects``, in the document's order.
    var destinations: [Int] = []

    /// How messages name an object: `"e1"` (its `_id` in quotes) or `#3`.
    func label(of object: Object) -> String {
        object.id.map(JSONWriter.quoted) ?? "#\(object.position)"
    }

    /// The entity of an object.
    func entity(of object: Object) -> Entity { entities[object.entity] }

    /// The positions in ``statements`` of an object's statements.
    func statementRange(of index: Int) -> Range<Int> {
        let end = index + 1 < objects.count ? objects[index + 1].firstStatement : statements.count
        return objects[index].firstStatement..<end
    }

    /// The position in ``statements`` of object `index`'s statement of the relationship named `name`,
    /// if the document gives one.
    func statementIndex(of index: Int, named name: String) -> Int? {
        let relationships = entity(of: objects[index]).relationships
        return statementRange(of: index).first { relationships[statements[$0].relationship].name == name }
    }

    /// The positions in ``destinations`` of a statement's destinations.
    func destinationRange(of statement: Statement) -> Range<Int> {
        statement.start..<statement.start + statement.count
    }
}
