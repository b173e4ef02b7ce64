import CDQIInterchange
import CDQIModel
import CDQIStore
import Foundation
import Testing

/// Every consecutive version pair of every corpus bundle, on a store *filled* for the older version: a
/// generated document (two objects of each concrete entity, every stored attribute and relationship set)
/// is imported, the store migrated, and `cdqi export`'s document before and after compared modulo the
/// model changes: every object survives with its primary key, surviving attributes keep their values
/// (renames followed; type changes not compared), relationships keep their targets, added attributes
/// hold their default or no value. Slow (an import, two exports and a migration per pair), so it runs
/// when `CDQI_MIGRATION_SWEEP=1`, as `CorpusVersionPairTests` does for empty stores.
@Suite(
    "Lightweight migration: corpus version pairs on filled stores",
    .enabled(if: InterchangeTestSupport.corpus != nil, "../shared/corpus is not present beside this checkout"),
    .enabled(
        if: ProcessInfo.processInfo.environment["CDQI_MIGRATION_SWEEP"] == "1",
        "set CDQI_MIGRATION_SWEEP=1 to migrate every corpus version pair (slow)"))
struct FilledMigrationSweepTests {
    struct Outcome {
        /// Pairs filled, migrated and compared, with the number of objects compared.
        var compared: [String: Int] = [:]
        /// Pairs whose older version the generator could not fill (the importer's reason).
        var unfilled: [String: String] = [:]
        /// Pairs refused before writing (changes that need a mapping model, or values the new version
        /// requires that the objects lack).
        var refused: [String: String] = [:]
    }

    @Test("filled stores migrate and keep every surviving value")
    func filledPairs() throws {
        let corpus = try #require(InterchangeTestSupport.corpus)
        let models = corpus.appendingPathComponent("models")
        var outcome = Outcome()
        let folder = try InterchangeTestSupport.Folder()
        for name in try FileManager.default.contentsOfDirectory(atPath: models.path).sorted() where name.hasSuffix(".xcdatamodeld") {
            guard let bundle = try? LoadedBundle(url: models.appendingPathComponent(name)), bundle.versions.count > 1 else { continue }
            for (older, newer) in zip(bundle.versions, bundle.versions.dropFirst()) {
                let label = "\(name): \(older.model.versionName ?? "") → \(newer.model.versionName ?? "")"
                let url = folder.file("\(UUID().uuidString).sqlite")
                do {
                    _ = try StoreImporter(model: older.model).importDocument(
                        Data(FillDocument(model: older.model).text.utf8), into: url)
                } catch {
                    outcome.unfilled[label] = "\(error)"
                    continue
                }
                let plan = try bundle.migrationPlan(forStoreAt: url, to: newer.model.versionName)
                if plan.isAlreadyCompatible { continue }
                if !plan.refusals.isEmpty {
                    outcome.refused[label] = plan.refusals.map(\.description).joined(separator: "; ")
                    continue
                }
                let before = try InterchangeTestSupport.objects(in: InterchangeTestSupport.export(model: older.model, from: url))
                do {
                    try StoreMigration.migrateStore(at: url, from: older.model, to: newer.model)
                } catch {
                    switch error {
                    case .missingValues, .constraintViolation:
                        // What the objects hold does not fit the new version (an attribute added with one
                        // default under a new uniqueness constraint): refused, the store unchanged.
                        outcome.refused[label] = error.description
                    default:
                        Issue.record("\(label): \(error)")
                    }
                    continue
                }
                let after = try InterchangeTestSupport.objects(in: InterchangeTestSupport.export(model: newer.model, from: url))
                let comparison = ExportComparison(older: older.model, newer: newer.model)
                let problems = comparison.problems(before: before, after: after)
                for problem in problems.prefix(5) { Issue.record("\(label): \(problem)") }
                if problems.isEmpty { outcome.compared[label] = before.values.reduce(0) { $0 + $1.count } }
            }
        }
        // Pairs of the reference's test list (coredata-migration.md §6), filled: Moody's rename with a
        // required attribute given a default, Brave's Integer 16 → 32.
        #expect(outcome.compared["objcio__core-data__Moody.xcdatamodeld: Moody → Moody 2"] != nil)
        #expect(outcome.compared["brave__brave-ios__Model.xcdatamodeld: Model10 → Model11"] != nil)
        print(
            "filled corpus pairs: \(outcome.compared.count) compared (\(outcome.compared.values.reduce(0, +)) objects), "
                + "\(outcome.refused.count) refused, \(outcome.unfilled.count) not filled")
        for (label, reason) in outcome.refused.sorted(by: { $0.key < $1.key }) { print("refused \(label): \(reason)") }
        for (label, reason) in outcome.unfilled.sorted(by: { $0.key < $1.key }) { print("not filled \(label): \(reason)") }
    }
}

/// A document for `cdqi import` with two objects of every concrete entity of a model, every stored
/// attribute given a value within its limits and every relationship set from one side of its pair.
struct FillDocument {
    let model: ManagedObjectModel
    static let perEntity = 2

    var text: String {
        let concrete = model.entities.filter { !$0.isAbstract }
        var ids: [String: [String]] = [:]
        for entity in concrete { ids[entity.name] = (0..<Self.perEntity).map { "\(entity.name)#\($0)" } }
        /// The objects a relationship to `entity` may point to: its own and its sub-entities'.
        func pool(_ entityName: String) -> [String] {
            guard let entity = model.entity(named: entityName) else { return [] }
            return (ids[entityName] ?? []) + model.subentities(of: entity).flatMap { pool($0.name) }
        }
        var counters: [String: Int] = [:]
        var serial = 0
        var lists: [String] = []
        for entity in concrete {
            var objects: [String] = []
            for id in ids[entity.name] ?? [] {
                serial += 1
                var members = [#""_id": \#(quoted(id))"#]
                for attribute in model.allAttributes(of: entity) where !attribute.isTransient && !attribute.isDerived {
                    if let value = value(of: attribute, serial: serial) { members.append("\(quoted(attribute.name)): \(value)") }
                }
                for relationship in model.allRelationships(of: entity) where !relationship.isTransient && sets(relationship, of: entity) {
                    let targets = pool(relationship.destinationEntityName)
                    guard !targets.isEmpty else { continue }
                    let key = "\(entity.name).\(relationship.name)"
                    let start = counters[key, default: 0]
                    if relationship.isToMany {
                        let count = min(max(relationship.minCount ?? 1, 1), relationship.maxCount ?? Int.max, targets.count)
                        let chosen = (0..<count).map { targets[(start + $0) % targets.count] }
                        counters[key] = start + count
                        members.append("\(quoted(relationship.name)): [\(chosen.map(quoted).joined(separator: ", "))]")
                    } else {
                        counters[key] = start + 1
                        members.append("\(quoted(relationship.name)): \(quoted(targets[start % targets.count]))")
                    }
                }
                objects.append("{" + members.joined(separator: ", ") + "}")
            }
            lists.append("\(quoted(entity.name)): [\(objects.joined(separator: ",\n"))]")
        }
        return "{" + lists.joined(separator: ",\n") + "}"
    }

    /// Whether `relationship` is the side of its inverse pair the document sets: the to-one side of a
    /// one-to-many, else the side whose `Entity.name` sorts first (both sides agreeing is then implied).
    private func sets(_ relationship: RelationshipDescription, of entity: EntityDescription) -> Bool {
        guard let inverseName = relationship.inverseName,
            let destination = model.entity(named: relationship.destinationEntityName),
            let inverse = model.allRelationships(of: destination).first(where: { $0.name == inverseName })
        else { return true }
        if relationship.isToMany != inverse.isToMany { return !relationship.isToMany }
        let declaring = (model.ancestors(of: entity).reversed() + [entity]).first { $0.relationships.contains { $0.name == relationship.name } }
        let inverseDeclaring = (model.ancestors(of: destination).reversed() + [destination])
            .first { $0.relationships.contains { $0.name == inverseName } }
        return "\(declaring?.name ?? entity.name).\(relationship.name)" <= "\(inverseDeclaring?.name ?? destination.name).\(inverseName)"
    }

    /// A JSON value for the attribute, distinct per object (`serial`) and within the attribute's limits;
    /// `nil` leaves the key out (types the document cannot carry).
    private func value(of attribute: AttributeDescription, serial: Int) -> String? {
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            var number = serial
            if let text = attribute.minValueString, let minimum = Int(text) { number = max(number, minimum) }
            if let text = attribute.maxValueString, let maximum = Int(text) { number = min(number, maximum) }
            return String(number)
        case .double, .float:
            var number = Double(serial) + 0.5
            if let text = attribute.minValueString, let minimum = Double(text) { number = max(number, minimum) }
            if let text = attribute.maxValueString, let maximum = Double(text) { number = min(number, maximum) }
            return String(number)
        case .decimal:
            return quoted("\(serial).25")
        case .string:
            var text = "v\(serial)"
            if let minimum = attribute.minValueString.flatMap({ Int($0) }), text.count < minimum {
                text += String(repeating: "x", count: minimum - text.count)
            }
            if let maximum = attribute.maxValueString.flatMap({ Int($0) }), maximum > 0, text.count > maximum {
                text = String(text.suffix(maximum))
            }
            return quoted(text)
        case .boolean:
            return serial % 2 == 0 ? "true" : "false"
        case .date:
            var seconds = Double(serial * 1000)
            if let minimum = attribute.minDateTimeInterval { seconds = max(seconds, minimum) }
            if let maximum = attribute.maxDateTimeInterval { seconds = min(seconds, maximum) }
            return String(seconds)
        case .binaryData, .transformable:
            return quoted(Data("b\(serial)".utf8).base64EncodedString())
        case .uuid:
            return quoted(String(format: "00000000-0000-4000-8000-%012d", serial))
        case .uri:
            return quoted("https://example.com/\(serial)")
        case .undefined, .objectID, .composite:
            return nil
        }
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Compares the export of a store before and after a migration, matching entities and properties as
/// Core Data does: by renaming identifier, which defaults to the name (`elementID` in the model file).
struct ExportComparison {
    let older: ManagedObjectModel
    let newer: ManagedObjectModel

    /// The newer version's entity for an older entity name (renamed ones followed), `nil` when removed.
    func newEntity(for oldName: String) -> EntityDescription? {
        let key = older.entity(named: oldName).map { $0.renamingIdentifier ?? $0.name } ?? oldName
        return newer.entities.first { ($0.renamingIdentifier ?? $0.name) == key }
    }

    /// `Entity/pk` with the entity renamed as the newer version names it.
    private func renamedID(_ id: String) -> String {
        guard let slash = id.firstIndex(of: "/"), let entity = newEntity(for: String(id[..<slash])) else { return id }
        return entity.name + id[slash...]
    }

    private func references(_ value: JSONValue?) -> [String] {
        switch value {
        case .string(let id)?: return [renamedID(id)]
        case .array(let items)?: return items.compactMap { if case .string(let id) = $0 { renamedID(id) } else { nil } }.sorted()
        default: return []
        }
    }

    func problems(
        before: [String: [String: [String: JSONValue]]], after: [String: [String: [String: JSONValue]]]
    ) -> [String] {
        var problems: [String] = []
        for (oldName, objects) in before.sorted(by: { $0.key < $1.key }) {
            guard let oldEntity = older.entity(named: oldName), let target = newEntity(for: oldName) else { continue }
            let migrated = after[target.name] ?? [:]
            if migrated.count != objects.count {
                problems.append("\(oldName): \(objects.count) object(s) before, \(migrated.count) after as \(target.name)")
            }
            let newAttributes = newer.allAttributes(of: target)
            let newRelationships = newer.allRelationships(of: target)
            for (id, members) in objects {
                guard let object = migrated[renamedID(id)] else {
                    problems.append("\(id) is missing after the migration")
                    continue
                }
                var matched: Set<String> = []
                for attribute in older.allAttributes(of: oldEntity) where !attribute.isTransient {
                    let key = attribute.renamingIdentifier ?? attribute.name
                    guard let counterpart = newAttributes.first(where: { ($0.renamingIdentifier ?? $0.name) == key }) else { continue }
                    matched.insert(counterpart.name)
                    guard counterpart.type == attribute.type, !counterpart.isTransient, !counterpart.isDerived, !attribute.isDerived else { continue }
                    let old = members[attribute.name] ?? .null
                    // Made required with a default: a missing value takes the default.
                    if old == .null, !counterpart.isOptional { continue }
                    if object[counterpart.name] != old {
                        problems.append("\(id).\(attribute.name) was \(old), is \(object[counterpart.name] ?? .null) as \(counterpart.name)")
                    }
                }
                for relationship in older.allRelationships(of: oldEntity) where !relationship.isTransient {
                    let key = relationship.renamingIdentifier ?? relationship.name
                    guard let counterpart = newRelationships.first(where: { ($0.renamingIdentifier ?? $0.name) == key }),
                        !counterpart.isTransient,
                        newEntity(for: relationship.destinationEntityName)?.name == counterpart.destinationEntityName
                    else { continue }
                    let old = references(members[relationship.name])
                    let new = references(object[counterpart.name])
                    if old != new { problems.append("\(id).\(relationship.name) was \(old), is \(new) as \(counterpart.name)") }
                }
                for attribute in newAttributes where !matched.contains(attribute.name) && !attribute.isTransient && !attribute.isDerived {
                    let value = object[attribute.name] ?? .null
                    if attribute.defaultValueString == nil, attribute.defaultDateTimeInterval == nil {
                        if value != .null { problems.append("\(id): added \(attribute.name) has \(value), expected no value") }
                    } else if attribute.type == .string, let text = attribute.defaultValueString, value != .string(text) {
                        problems.append("\(id): added \(attribute.name) has \(value), expected its default \"\(text)\"")
                    } else if [.integer16, .integer32, .integer64].contains(attribute.type), let text = attribute.defaultValueString,
                        let expected = Int(text), value != .number(String(expected))
                    {
                        problems.append("\(id): added \(attribute.name) has \(value), expected its default \(expected)")
                    }
                }
            }
        }
        return problems
    }
}
