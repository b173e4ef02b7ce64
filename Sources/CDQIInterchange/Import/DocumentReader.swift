import CDQIModel
import CDQIPredicate

/// Checks an import document against a model and turns it into an ``ImportPlan``, collecting every
/// problem rather than stopping at the first.
///
/// The document is an object whose keys are entity names and whose values are arrays of objects. In
/// each object, `_id` (optional, a string unique in the whole document) is the name other objects use
/// to refer to it; every other key is an attribute or a relationship of the entity (inherited ones
/// included). A to-one relationship takes an `_id` or `null`; a to-many one an array of `_id`s. When
/// both sides of an inverse pair are given they must agree.
struct DocumentReader {
    let model: ManagedObjectModel

    private struct Pending {
        var entity: EntityDescription
        var label: String
        var attributes: [(key: String, value: StoredValue)] = []
        var toOne: [(key: String, relationship: RelationshipDescription, reference: String?)] = []
        var toMany: [(key: String, relationship: RelationshipDescription, references: [String])] = []
    }

    func read(_ document: JSONValue) -> Result<ImportPlan, InterchangeError> {
        var problems: [DocumentProblem] = []
        guard case .object(let lists) = document else {
            return .failure(
                .invalidDocument([
                    DocumentProblem(
                        message: "the document must be an object whose keys are entity names, not \(document.kindDescription)")
                ]))
        }
        var pending: [Pending] = []
        var indexByID: [DocumentID: Int] = [:]
        let known = model.entities.map(\.name)
        for (entityName, list) in lists {
            guard let entity = model.entity(named: entityName) else {
                problems.append(
                    DocumentProblem(
                        entity: entityName,
                        message: "the model has no such entity (entities: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"))
                continue
            }
            if entity.isAbstract {
                problems.append(
                    DocumentProblem(
                        entity: entityName, message: "the entity is abstract and has no objects of its own; list them under its sub-entities"))
                continue
            }
            guard case .array(let elements) = list else {
                problems.append(DocumentProblem(entity: entityName, message: "expected an array of objects, not \(list.kindDescription)"))
                continue
            }
            for (position, element) in elements.enumerated() {
                let positionLabel = "#\(position + 1)"
                guard case .object(let members) = element else {
                    problems.append(
                        DocumentProblem(
                            entity: entityName, object: positionLabel, message: "expected an object, not \(element.kindDescription)"))
                    continue
                }
                var label = positionLabel
                var objectID: String?
                if let idValue = members.first(where: { $0.key == "_id" })?.value {
                    if case .string(let id) = idValue, !id.isEmpty {
                        label = JSONWriter.quoted(id)
                        objectID = id
                    } else {
                        problems.append(
                            DocumentProblem(
                                entity: entityName, object: positionLabel, key: "_id",
                                message: "an _id is a non-empty string, not \(idValue.kindDescription)"))
                    }
                }
                if let id = objectID {
                    if let other = indexByID[DocumentID(id)] {
                        problems.append(
                            DocumentProblem(
                                entity: entityName, object: label, key: "_id",
                                message: "the _id is used twice (also by \(pending[other].entity.name) #\(Self.position(of: other, in: pending)))"))
                    } else {
                        indexByID[DocumentID(id)] = pending.count
                    }
                }
                pending.append(readObject(members, entity: entity, label: label, problems: &problems))
            }
        }

        // References, once every _id is known.
        var objects: [ImportPlan.Object] = []
        for item in pending {
            var object = ImportPlan.Object(entity: item.entity.name, label: item.label, attributes: item.attributes, toOne: [], toMany: [])
            for (key, relationship, reference) in item.toOne {
                guard let reference else {
                    object.toOne.append((key, nil))
                    continue
                }
                if let index = resolve(reference, relationship, from: item, key: key, indexByID: indexByID, pending: pending, problems: &problems) {
                    object.toOne.append((key, index))
                }
            }
            for (key, relationship, references) in item.toMany {
                var members: [Int] = []
                var seen: Set<DocumentID> = []
                for reference in references {
                    guard seen.insert(DocumentID(reference)).inserted else {
                        problems.append(
                            DocumentProblem(
                                entity: item.entity.name, object: item.label, key: key, message: "lists \(JSONWriter.quoted(reference)) twice"))
                        continue
                    }
                    if let index = resolve(reference, relationship, from: item, key: key, indexByID: indexByID, pending: pending, problems: &problems) {
                        members.append(index)
                    }
                }
                object.toMany.append((key, members))
            }
            objects.append(object)
        }
        if problems.isEmpty {
            problems += inverseDisagreements(objects, pending: pending)
        }
        return problems.isEmpty ? .success(ImportPlan(objects: objects)) : .failure(.invalidDocument(problems))
    }

    private func readObject(
        _ members: [(key: String, value: JSONValue)], entity: EntityDescription, label: String, problems: inout [DocumentProblem]
    ) -> Pending {
        var item = Pending(entity: entity, label: label)
        let attributes = model.allAttributes(of: entity)
        let relationships = model.allRelationships(of: entity)
        for (key, value) in members where key != "_id" {
            func problem(_ message: String) {
                problems.append(DocumentProblem(entity: entity.name, object: label, key: key, message: message))
            }
            if let attribute = attributes.first(where: { $0.name == key }) {
                if attribute.isTransient {
                    problem("the attribute is transient (never stored), so it cannot be imported")
                    continue
                }
                switch AttributeValueReader.read(value, for: attribute) {
                case .success(let stored): item.attributes.append((key, stored))
                case .failure(let failure): problem(failure.message)
                }
            } else if let relationship = relationships.first(where: { $0.name == key }) {
                if relationship.isTransient {
                    problem("the relationship is transient (never stored), so it cannot be imported")
                    continue
                }
                if relationship.isToMany {
                    guard case .array(let elements) = value else {
                        problem("a to-many relationship takes an array of _ids, not \(value.kindDescription)")
                        continue
                    }
                    var references: [String] = []
                    for element in elements {
                        guard case .string(let reference) = element else {
                            problem("a to-many relationship takes an array of _ids (strings), and holds \(element.kindDescription)")
                            continue
                        }
                        references.append(reference)
                    }
                    item.toMany.append((key, relationship, references))
                } else {
                    switch value {
                    case .null: item.toOne.append((key, relationship, nil))
                    case .string(let reference): item.toOne.append((key, relationship, reference))
                    default: problem("a to-one relationship takes an _id (a string) or null, not \(value.kindDescription)")
                    }
                }
            } else {
                let names = (attributes.map(\.name) + relationships.map(\.name))
                problem("entity \(entity.name) has no such attribute or relationship (it has: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
            }
        }
        return item
    }

    /// The index of the object `reference` names, if it exists and may be a destination of `relationship`.
    private func resolve(
        _ reference: String, _ relationship: RelationshipDescription, from item: Pending, key: String,
        indexByID: [DocumentID: Int], pending: [Pending], problems: inout [DocumentProblem]
    ) -> Int? {
        guard let index = indexByID[DocumentID(reference)] else {
            problems.append(
                DocumentProblem(
                    entity: item.entity.name, object: item.label, key: key,
                    message: "no object in the document has the _id \(JSONWriter.quoted(reference))"))
            return nil
        }
        let destination = pending[index].entity
        let lineage = [destination.name] + model.ancestors(of: destination).map(\.name)
        guard lineage.contains(relationship.destinationEntityName) else {
            problems.append(
                DocumentProblem(
                    entity: item.entity.name, object: item.label, key: key,
                    message: "\(JSONWriter.quoted(reference)) is an object of entity \(destination.name), and the relationship "
                        + "holds \(relationship.destinationEntityName) objects"))
            return nil
        }
        return index
    }

    /// When both sides of an inverse pair are given, an edge one side states must be stated by the other.
    private func inverseDisagreements(_ objects: [ImportPlan.Object], pending: [Pending]) -> [DocumentProblem] {
        // (object index, key) → the destinations the document gives it.
        var stated: [Key: Set<Int>] = [:]
        for (index, object) in objects.enumerated() {
            for (key, destination) in object.toOne { stated[Key(object: index, key: key)] = destination.map { [$0] } ?? [] }
            for (key, members) in object.toMany { stated[Key(object: index, key: key)] = Set(members) }
        }
        var problems: [DocumentProblem] = []
        for (index, object) in objects.enumerated() {
            let relationships = model.allRelationships(of: pending[index].entity)
            let keys = object.toOne.map(\.key) + object.toMany.map(\.key)
            for key in keys {
                guard let relationship = relationships.first(where: { $0.name == key }), let inverse = relationship.inverseName,
                    let destinations = stated[Key(object: index, key: key)]
                else { continue }
                for destination in destinations.sorted() {
                    guard let back = stated[Key(object: destination, key: inverse)], !back.contains(index) else { continue }
                    let other = objects[destination]
                    problems.append(
                        DocumentProblem(
                            entity: object.entity, object: object.label, key: key,
                            message: "names \(other.entity) \(other.label), whose inverse '\(inverse)' does not name this object back"))
                }
            }
        }
        return problems
    }

    private struct Key: Hashable {
        var object: Int
        var key: String
    }

    private static func position(of index: Int, in pending: [Pending]) -> Int {
        let entity = pending[index].entity.name
        return pending[...index].filter { $0.entity.name == entity }.count
    }
}
