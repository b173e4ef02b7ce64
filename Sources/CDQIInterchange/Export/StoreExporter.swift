import CDQIModel
import CDQIPredicate
import CDQIStore
import Foundation

/// Writes a store's objects as an interchange document, the format ``StoreImporter`` reads.
///
/// Entities come in model order, objects in primary-key order, each with `_id` `Entity/pk`, then every
/// stored attribute (inherited ones first; `null` for no value, so that a re-import does not put a
/// default in its place), then every stored relationship: a to-one as an `_id` or `null`, a to-many as
/// an array of `_id`s (in primary-key order, or in the relationship's order when it is ordered). Both
/// sides of an inverse pair are written. Importing the document into an empty store and exporting again
/// gives the same text.
public struct StoreExporter {
    /// The model of the store.
    public let model: ManagedObjectModel

    /// Creates an exporter for a model.
    public init(model: ManagedObjectModel) {
        self.model = model
    }

    /// The entities an export covers: `entity` and its sub-entities, or every entity; abstract ones are
    /// left out (their objects are listed under their concrete sub-entities).
    public func entities(for entity: String?) throws(InterchangeError) -> [EntityDescription] {
        guard let entity else { return model.entities.filter { !$0.isAbstract } }
        guard let root = model.entity(named: entity) else {
            throw .unknownEntity(name: entity, known: model.entities.map(\.name))
        }
        var names: Set<String> = [root.name]
        var changed = true
        while changed {
            changed = false
            for candidate in model.entities where !names.contains(candidate.name) {
                if let parent = candidate.parentEntityName, names.contains(parent) {
                    names.insert(candidate.name)
                    changed = true
                }
            }
        }
        return model.entities.filter { names.contains($0.name) && !$0.isAbstract }
    }

    /// The document for the store of `context`: every entity, or `entity` and its sub-entities. With an
    /// entity filter, relationships to entities left out are not written (the document stays importable).
    public func document(from context: ManagedObjectContext, entity: String? = nil) throws(InterchangeError) -> JSONValue {
        let entities = try entities(for: entity)
        let exported = Set(entities.map(\.name))
        var lists: [(key: String, value: JSONValue)] = []
        do {
            for description in entities {
                let attributes = model.allAttributes(of: description).filter {
                    !$0.isTransient && $0.type != .undefined && $0.type != .composite
                }
                let relationships = model.allRelationships(of: description).filter {
                    !$0.isTransient && covers(exported, $0.destinationEntityName)
                }
                let request = FetchRequest(entityName: description.name, includesSubentities: false)
                var objects: [JSONValue] = []
                for object in try context.fetch(request).sortedByPrimaryKey() {
                    var members: [(key: String, value: JSONValue)] = [("_id", .string(ObjectKey.string(for: object.objectID)))]
                    for attribute in attributes {
                        members.append((attribute.name, try object.storedValue(forKey: attribute.name).interchangeJSON))
                    }
                    for relationship in relationships {
                        members.append((relationship.name, try relationshipJSON(object, relationship)))
                    }
                    objects.append(.object(members))
                }
                lists.append((description.name, .array(objects)))
            }
        } catch let error as InterchangeError {
            throw error
        } catch {
            throw .store("cannot read the store: \(error)")
        }
        return .object(lists)
    }

    /// Writes the document for the store of `context` piece by piece to `write`, in the text form of
    /// ``text(of:)``, reading `pageSize` objects at a time in primary-key order and resetting the context
    /// after each page, so memory stays flat however many objects the store holds. A to-many relationship
    /// is written from its members' IDs, read without loading the members as objects, so a page holds
    /// its own objects and their to-one destinations (as faults), however many members they have.
    /// `progress` is told the number of objects written so far after each page.
    public func writeDocument(
        from context: ManagedObjectContext, entity: String? = nil, pageSize: Int = 1_000,
        progress: ((Int) -> Void)? = nil, to write: (String) throws -> Void
    ) throws(InterchangeError) {
        let entities = try entities(for: entity)
        let exported = Set(entities.map(\.name))
        let size = max(1, pageSize)
        var written = 0
        do {
            guard !entities.isEmpty else {
                try write("{}\n")
                return
            }
            try write("{\n")
            for (position, description) in entities.enumerated() {
                let attributes = model.allAttributes(of: description).filter {
                    !$0.isTransient && $0.type != .undefined && $0.type != .composite
                }
                let relationships = model.allRelationships(of: description).filter {
                    !$0.isTransient && covers(exported, $0.destinationEntityName)
                }
                try write((position > 0 ? ",\n" : "") + "  " + JSONWriter.quoted(description.name) + ": ")
                var first = true
                var offset = 0
                while true {
                    // A window orders by primary key: pages follow one another without gaps or repeats.
                    let request = FetchRequest(
                        entityName: description.name, fetchLimit: size, fetchOffset: offset, includesSubentities: false)
                    let page = try context.fetch(request)
                    for object in page {
                        var members: [(key: String, value: JSONValue)] = [("_id", .string(ObjectKey.string(for: object.objectID)))]
                        for attribute in attributes {
                            members.append((attribute.name, try object.storedValue(forKey: attribute.name).interchangeJSON))
                        }
                        for relationship in relationships {
                            members.append((relationship.name, try relationshipJSON(object, relationship)))
                        }
                        try write((first ? "[\n" : ",\n") + "    " + JSONWriter.compact(.object(members)))
                        first = false
                    }
                    written += page.count
                    offset += page.count
                    context.reset()
                    progress?(written)
                    if page.count < size { break }
                }
                try write(first ? "[]" : "\n  ]")
            }
            try write("\n}\n")
        } catch let error as InterchangeError {
            throw error
        } catch {
            throw .store("cannot read the store: \(error)")
        }
    }

    /// The document as text: one line per object, entity lists indented.
    public static func text(of document: JSONValue) -> String {
        guard case .object(let lists) = document else { return JSONWriter.compact(document) + "\n" }
        guard !lists.isEmpty else { return "{}\n" }
        let body = lists.map { list -> String in
            let value: String
            if case .array(let elements) = list.value {
                value = JSONWriter.arrayOfLines(elements, indent: "  ")
            } else {
                value = JSONWriter.compact(list.value)
            }
            return "  " + JSONWriter.quoted(list.key) + ": " + value
        }
        return "{\n" + body.joined(separator: ",\n") + "\n}\n"
    }

    private func relationshipJSON(_ object: ManagedObject, _ relationship: RelationshipDescription) throws -> JSONValue {
        if relationship.isToMany {
            // IDs alone: a page of owners never loads their members as objects, however many there are.
            var members = try object.objectIDs(forRelationshipNamed: relationship.name)
            if !relationship.isOrdered { members.sort(by: Self.keyOrder) }
            return .array(members.map { .string(ObjectKey.string(for: $0)) })
        }
        return try object.object(forKey: relationship.name).map { .string(ObjectKey.string(for: $0.objectID)) } ?? .null
    }

    /// Whether every object a relationship to `destination` can hold is exported.
    private func covers(_ exported: Set<String>, _ destination: String) -> Bool {
        guard let entity = model.entity(named: destination) else { return false }
        if !entity.isAbstract && !exported.contains(destination) { return false }
        return model.subentities(of: entity).allSatisfy { covers(exported, $0.name) }
    }

    private static func keyOrder(_ left: ManagedObjectID, _ right: ManagedObjectID) -> Bool {
        if left.entityName != right.entityName { return left.entityName < right.entityName }
        return (left.primaryKey ?? 0) < (right.primaryKey ?? 0)
    }
}

extension StoreExporter {
    /// The document text of the store at `storeURL`, which must exist (an export never creates a store).
    public func exportText(storeURL: URL, entity: String? = nil) throws(InterchangeError) -> String {
        var text = ""
        try export(storeURL: storeURL, entity: entity) { text += $0 }
        return text
    }

    /// Writes the document of the store at `storeURL` piece by piece to `write` (see
    /// ``writeDocument(from:entity:pageSize:progress:to:)``: memory stays flat).
    public func export(
        storeURL: URL, entity: String? = nil, progress: ((Int) -> Void)? = nil, to write: (String) throws -> Void
    ) throws(InterchangeError) {
        try export(store: .file(storeURL), entity: entity, progress: progress, to: write)
    }

    /// The document text of the store at `location`, which must exist (an export never creates a store).
    public func exportText(store location: StoreLocation, entity: String? = nil) throws(InterchangeError) -> String {
        var text = ""
        try export(store: location, entity: entity) { text += $0 }
        return text
    }

    /// Writes the document of the store at `location` (a SQLite file, opened read-only, or a PostgreSQL
    /// schema, refused when it holds no store) piece by piece to `write`, as
    /// ``export(storeURL:entity:progress:to:)`` does.
    public func export(
        store location: StoreLocation, entity: String? = nil, progress: ((Int) -> Void)? = nil, to write: (String) throws -> Void
    ) throws(InterchangeError) {
        let context: ManagedObjectContext
        do {
            context = try StoreQuery.openContext(model: model, location: location)
        } catch {
            throw .store(error.description)
        }
        try writeDocument(from: context, entity: entity, progress: progress, to: write)
    }
}
