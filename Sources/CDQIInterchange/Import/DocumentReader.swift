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
///
/// The document is read one object at a time (``DocumentWalker``): values are checked and let go, and
/// what the plan keeps of an object is its entity, its `_id` and its references. Problems come in the
/// document's order, then those of references (once every `_id` is known), then disagreeing inverses;
/// a syntax error anywhere is the only error reported.
struct DocumentReader {
    let model: ManagedObjectModel

    func read(_ source: DocumentSource) -> Result<ImportPlan, InterchangeError> {
        var checker = Checker(model: model)
        do {
            try DocumentWalker.walk(source, visitor: &checker)
        } catch let error as JSONParseError {
            if let failure = source.failure { return .failure(.store(failure)) }
            return .failure(.syntax(error))
        } catch {
            return .failure(.store("\(error)"))
        }
        if let failure = source.failure { return .failure(.store(failure)) }
        var plan = checker.plan
        var problems = checker.problems
        let references = checker.references
        let indexByID = checker.indexByID
        checker = Checker(model: model)  // the plan's arrays are this function's alone: changed in place
        resolve(&plan, references: references, ids: indexByID, problems: &problems)
        if problems.isEmpty {
            problems += inverseDisagreements(plan)
        }
        return problems.isEmpty ? .success(plan) : .failure(.invalidDocument(problems))
    }

    /// Pass one: every object's values checked, its `_id` and references noted.
    private struct Checker: DocumentVisitor {
        let model: ManagedObjectModel
        var plan = ImportPlan()
        var problems: [DocumentProblem] = []
        var entityIndex: [String: Int] = [:]
        var indexByID = DocumentIDIndex()
        /// Each statement's references, in the order of ``ImportPlan/destinations`` (resolved later).
        var references: [String] = []
        /// The list being read: its entity in ``ImportPlan/entities``, or `nil` when it is not read.
        var current: Int?

        init(model: ManagedObjectModel) {
            self.model = model
        }

        mutating func documentIsNot(_ kind: String) {
            problems.append(DocumentProblem(message: "the document must be an object whose keys are entity names, not \(kind)"))
        }

        mutating func beginList(entity entityName: String, at offset: Int) -> Bool {
            current = nil
            guard let entity = model.entity(named: entityName) else {
                let known = model.entities.map(\.name)
                problems.append(
                    DocumentProblem(
                        entity: entityName,
                        message: "the model has no such entity (entities: \(known.isEmpty ? "none" : known.joined(separator: ", ")))"))
                return false
            }
            if entity.isAbstract {
                problems.append(
                    DocumentProblem(
                        entity: entityName, message: "the entity is abstract and has no objects of its own; list them under its sub-entities"))
                return false
            }
            let index: Int
            if let known = entityIndex[entityName] {
                index = known
            } else {
                index = plan.entities.count
                entityIndex[entityName] = index
                plan.entities.append(ImportPlan.Entity(entity, model: model))
            }
            current = index
            plan.lists.append(ImportPlan.List(entity: index, offset: offset, objects: plan.objects.count..<plan.objects.count))
            return true
        }

        mutating func listIsNot(_ kind: String, entity: String) {
            problems.append(DocumentProblem(entity: entity, message: "expected an array of objects, not \(kind)"))
        }

        mutating func element(_ members: [(key: String, value: JSONValue)]?, kind: String, position: Int, entity entityName: String) {
            guard let current else { return }
            let positionLabel = "#\(position)"
            guard let members else {
                problems.append(DocumentProblem(entity: entityName, object: positionLabel, message: "expected an object, not \(kind)"))
                return
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
            var isFirstWithItsID = false
            if let id = objectID {
                if let other = indexByID.position(of: id, in: plan.objects) {
                    let otherObject = plan.objects[other]
                    problems.append(
                        DocumentProblem(
                            entity: entityName, object: label, key: "_id",
                            message: "the _id is used twice (also by \(plan.entity(of: otherObject).description.name) #\(ordinal(of: other)))"))
                } else {
                    isFirstWithItsID = true
                }
            }
            // An _id used twice names its first object only (the index holds that one).
            plan.objects.append(ImportPlan.Object(entity: current, position: position, id: objectID, firstStatement: plan.statements.count))
            if isFirstWithItsID { indexByID.insert(plan.objects.count - 1, in: plan.objects) }
            if let last = plan.lists.indices.last { plan.lists[last].objects = plan.lists[last].objects.lowerBound..<plan.objects.count }
            readObject(members, entity: plan.entities[current], label: label)
        }

        /// An object's place among the objects of its entity (from 1), for "also by Employee #2": its
        /// place in its list, counting objects only (an entity has one list: a key is never given twice).
        private func ordinal(of index: Int) -> Int {
            guard let list = plan.lists.last(where: { $0.objects.lowerBound <= index }) else { return index + 1 }
            return index - list.objects.lowerBound + 1
        }

        private mutating func readObject(_ members: [(key: String, value: JSONValue)], entity: ImportPlan.Entity, label: String) {
            let name = entity.description.name
            for (key, value) in members where key != "_id" {
                func problem(_ message: String) {
                    problems.append(DocumentProblem(entity: name, object: label, key: key, message: message))
                }
                if let attributeIndex = entity.attributeIndex[key] {
                    let attribute = entity.attributes[attributeIndex]
                    if attribute.isTransient {
                        problem("the attribute is transient (never stored), so it cannot be imported")
                        continue
                    }
                    if case .failure(let failure) = AttributeValueReader.read(value, for: attribute) { problem(failure.message) }
                } else if let relationshipIndex = entity.relationshipIndex[key] {
                    let relationship = entity.relationships[relationshipIndex]
                    if relationship.isTransient {
                        problem("the relationship is transient (never stored), so it cannot be imported")
                        continue
                    }
                    let start = references.count
                    if relationship.isToMany {
                        guard case .array(let elements) = value else {
                            problem("a to-many relationship takes an array of _ids, not \(value.kindDescription)")
                            continue
                        }
                        for element in elements {
                            guard case .string(let reference) = element else {
                                problem("a to-many relationship takes an array of _ids (strings), and holds \(element.kindDescription)")
                                continue
                            }
                            references.append(reference)
                        }
                    } else {
                        switch value {
                        case .null: break
                        case .string(let reference): references.append(reference)
                        default:
                            problem("a to-one relationship takes an _id (a string) or null, not \(value.kindDescription)")
                            continue
                        }
                    }
                    plan.statements.append(
                        ImportPlan.Statement(
                            relationship: relationshipIndex, start: start, count: references.count - start, isToMany: relationship.isToMany))
                } else {
                    let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
                    problem("entity \(name) has no such attribute or relationship (it has: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
                }
            }
        }
    }

    /// Pass two, on the plan: references become positions in ``ImportPlan/objects`` (each object's
    /// to-one statements, then its to-many ones, as problems are reported).
    private func resolve(_ plan: inout ImportPlan, references: [String], ids: DocumentIDIndex, problems: inout [DocumentProblem]) {
        plan.destinations = [Int](repeating: -1, count: references.count)
        // Each entity of the plan with its ancestors' names, worked out once rather than per reference.
        let lineages = plan.entities.map { Set([$0.description.name] + model.ancestors(of: $0.description).map(\.name)) }
        for index in plan.objects.indices {
            let object = plan.objects[index]
            let entity = plan.entity(of: object)
            let range = plan.statementRange(of: index)
            for toMany in [false, true] {
                for statementIndex in range where plan.statements[statementIndex].isToMany == toMany {
                    let statement = plan.statements[statementIndex]
                    let relationship = entity.relationships[statement.relationship]
                    var seen: Set<DocumentID> = []
                    for position in plan.destinationRange(of: statement) {
                        let reference = references[position]
                        func problem(_ message: String) {
                            problems.append(
                                DocumentProblem(
                                    entity: entity.description.name, object: plan.label(of: object), key: relationship.name, message: message))
                        }
                        if toMany {
                            guard seen.insert(DocumentID(reference)).inserted else {
                                problem("lists \(JSONWriter.quoted(reference)) twice")
                                continue
                            }
                        }
                        guard let destinationIndex = ids.position(of: reference, in: plan.objects) else {
                            problem("no object in the document has the _id \(JSONWriter.quoted(reference))")
                            continue
                        }
                        let destinationEntity = plan.objects[destinationIndex].entity
                        let destination = plan.entities[destinationEntity].description
                        guard lineages[destinationEntity].contains(relationship.destinationEntityName) else {
                            problem(
                                "\(JSONWriter.quoted(reference)) is an object of entity \(destination.name), and the relationship "
                                    + "holds \(relationship.destinationEntityName) objects")
                            continue
                        }
                        plan.destinations[position] = destinationIndex
                    }
                }
            }
        }
    }

    /// When both sides of an inverse pair are given, an edge one side states must be stated by the other.
    private func inverseDisagreements(_ plan: ImportPlan) -> [DocumentProblem] {
        // Each statement's destinations in order, for looking one up.
        var sorted = plan.destinations
        for statement in plan.statements { sorted[plan.destinationRange(of: statement)].sort() }
        var problems: [DocumentProblem] = []
        for index in plan.objects.indices {
            let object = plan.objects[index]
            let entity = plan.entity(of: object)
            let range = plan.statementRange(of: index)
            for toMany in [false, true] {
                for statementIndex in range where plan.statements[statementIndex].isToMany == toMany {
                    let stated = plan.statements[statementIndex]
                    let relationship = entity.relationships[stated.relationship]
                    guard let inverse = relationship.inverseName else { continue }
                    for destination in sorted[plan.destinationRange(of: stated)] {
                        guard let back = plan.statementIndex(of: destination, named: inverse).map({ plan.statements[$0] }),
                            !Self.contains(sorted[plan.destinationRange(of: back)], index)
                        else { continue }
                        let other = plan.objects[destination]
                        problems.append(
                            DocumentProblem(
                                entity: entity.description.name, object: plan.label(of: object), key: relationship.name,
                                message:
                                    "names \(plan.entity(of: other).description.name) \(plan.label(of: other)), whose inverse '\(inverse)' does not name this object back"
                            ))
                    }
                }
            }
        }
        return problems
    }

    /// Whether the sorted run `run` holds `value` (a binary search).
    private static func contains(_ run: ArraySlice<Int>, _ value: Int) -> Bool {
        var low = run.startIndex
        var high = run.endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if run[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < run.endIndex && run[low] == value
    }
}
